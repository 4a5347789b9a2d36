// SPDX-License-Identifier: GPL-2.0
//
// locks: Rust std's own locks contended across threads, for the apps
// family (scenarios/apps/session.tsv, rust_locks). Built by the lab with
// the distribution's own rustc and std (host-tools/initramfs/rust.sh),
// linked against the root's glibc as Debian builds its Rust programs.
//
// A std::sync::Mutex taken by LOCK_WORKERS threads, held while they start
// so that each one's first lock() waits (try_lock failed: contended); a
// Condvar passing a turn between two threads; and thread::park/unpark
// passing one back and forth. The threads are scoped (thread::scope), so
// that every wait is std's own: the scope waits for its threads by parking,
// never with the libc's pthread_join. Each part also says how many times
// its threads blocked, both sides of a handoff summed (their voluntary
// context switches; which side waits depends on whom the scheduler runs
// first): a wait that sleeps blocks, one that spins never does, and the
// counts add up either way. One line, each part printed as it ends, then exit 0; on a
// crash the output says how far it came.
use std::io::Write;
use std::sync::atomic::{AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::thread;

const LOCK_WORKERS: usize = 2;
const LOCK_ROUNDS: usize = 1000;
const HANDOFFS: usize = 20;

/// How many times the calling thread has blocked so far: its voluntary
/// context switches (/proc/thread-self/status).
fn blocks() -> u64 {
    let status = std::fs::read_to_string("/proc/thread-self/status").expect("/proc/thread-self/status");
    status
        .lines()
        .find_map(|l| l.strip_prefix("voluntary_ctxt_switches:"))
        .and_then(|n| n.trim().parse().ok())
        .expect("voluntary_ctxt_switches in /proc/thread-self/status")
}

fn part(text: String) {
    let mut out = std::io::stdout();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).expect("stdout");
}

fn mutex() {
    let taken = Mutex::new(0usize);
    let contended = AtomicUsize::new(0);
    let asleep = AtomicU64::new(0);
    thread::scope(|s| {
        let held = taken.lock().unwrap();
        for _ in 0..LOCK_WORKERS {
            s.spawn(|| {
                let before = blocks();
                for _ in 0..LOCK_ROUNDS {
                    let mut n = match taken.try_lock() {
                        Ok(n) => n,
                        Err(_) => {
                            contended.fetch_add(1, Ordering::Relaxed);
                            taken.lock().unwrap()
                        }
                    };
                    *n += 1;
                }
                asleep.fetch_add(blocks() - before, Ordering::Relaxed);
            });
        }
        while contended.load(Ordering::Relaxed) < LOCK_WORKERS {
            thread::yield_now();
        }
        drop(held);
    });
    part(format!(
        "mutex {} of {} ({} contended, {} asleep), ",
        taken.into_inner().unwrap(),
        LOCK_WORKERS * LOCK_ROUNDS,
        contended.into_inner(),
        asleep.into_inner()
    ));
}

fn condvar() {
    let turn = Mutex::new((0u32, 0usize)); // whose turn, how many passed
    let changed = Condvar::new();
    let asleep = AtomicU64::new(0);
    thread::scope(|s| {
        s.spawn(|| {
            let before = blocks();
            for _ in 0..HANDOFFS {
                let mut t = changed.wait_while(turn.lock().unwrap(), |t| t.0 != 1).unwrap();
                *t = (0, t.1 + 1);
                changed.notify_one();
            }
            asleep.fetch_add(blocks() - before, Ordering::Relaxed);
        });
        let before = blocks();
        for _ in 0..HANDOFFS {
            let mut t = turn.lock().unwrap();
            t.0 = 1;
            changed.notify_one();
            drop(changed.wait_while(t, |t| t.0 != 0).unwrap());
        }
        asleep.fetch_add(blocks() - before, Ordering::Relaxed);
    });
    part(format!(
        "condvar {} of {} ({} asleep), ",
        turn.into_inner().unwrap().1,
        HANDOFFS,
        asleep.into_inner()
    ));
}

fn park() {
    let ball = AtomicU32::new(0); // 1: the other thread's, 0: main's
    let returned = AtomicUsize::new(0);
    let main = thread::current();
    let asleep = AtomicU64::new(0);
    thread::scope(|s| {
        let other = s.spawn(|| {
            let before = blocks();
            for _ in 0..HANDOFFS {
                while ball.load(Ordering::Acquire) != 1 {
                    thread::park();
                }
                returned.fetch_add(1, Ordering::Relaxed);
                ball.store(0, Ordering::Release);
                main.unpark();
            }
            asleep.fetch_add(blocks() - before, Ordering::Relaxed);
        });
        let before = blocks();
        for _ in 0..HANDOFFS {
            ball.store(1, Ordering::Release);
            other.thread().unpark();
            while ball.load(Ordering::Acquire) != 0 {
                thread::park();
            }
        }
        asleep.fetch_add(blocks() - before, Ordering::Relaxed);
    });
    part(format!(
        "park {} of {} ({} asleep)\n",
        returned.into_inner(),
        HANDOFFS,
        asleep.into_inner()
    ));
}

fn main() {
    // Read once here, where a missing /proc ends the program: in a worker
    // it would leave the holder of the mutex waiting for it forever.
    blocks();
    mutex();
    condvar();
    park();
}
