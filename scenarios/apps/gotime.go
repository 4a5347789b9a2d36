// SPDX-License-Identifier: GPL-2.0
//
// gotime: what a Go program does with time, for the apps family. Built by
// the lab with Debian's own Go (host-tools/initramfs/go.sh), statically, as
// every Go program is; one command per case (scenarios/apps/session.tsv):
//
//	gotime now          the wall clock: seconds and the UTC date
//	gotime sleep        time.Sleep(1 s): how long it took, by Go's monotonic clock
//	gotime timer        a 1 s time.Timer: when it fired
//	gotime mtime FILE   os.Chtimes to 2040-01-01T00:00:00Z, then os.Stat's mtime
//	gotime locks        the runtime's own locks contended across threads: a
//	                    sync.Mutex, a sync.Cond and a channel, each between
//	                    goroutines locked to threads of their own
//
// Each prints one line, after the Go that built it ("go1.24.4 linux/386: "),
// or the error Go returned and exit status 1. Under the apps session, which
// names its marker in Y2038_ARMED, sleep and timer first print that line as
// they arm their wait (guest-init/session.c: a wait armed past the overflow
// missed its moment).
package main

import (
	"fmt"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// 2040-01-01T00:00:00Z: past 2038, within an unsigned 32-bit time.
const mtime2040 = 2208988800

// say prints one line after the Go that built this program.
func say(format string, args ...any) {
	fmt.Printf("%s %s/%s: ", runtime.Version(), runtime.GOOS, runtime.GOARCH)
	fmt.Printf(format+"\n", args...)
}

// armed tells the session that the wait is armed now (its marker line).
func armed() {
	if mark := os.Getenv("Y2038_ARMED"); mark != "" {
		fmt.Println(mark)
	}
}

func fail(what string, err error) {
	say("%s: %v", what, err)
	os.Exit(1)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gotime now|sleep|timer|mtime FILE|locks")
		os.Exit(2)
	}
	switch os.Args[1] {
	case "now":
		t := time.Now()
		say("%d %s", t.Unix(), t.UTC().Format(time.RFC3339))
	case "sleep":
		start := time.Now()
		armed()
		time.Sleep(time.Second)
		say("slept %.3f s, now %s", time.Since(start).Seconds(),
			time.Now().UTC().Format(time.RFC3339))
	case "timer":
		start := time.Now()
		timer := time.NewTimer(time.Second)
		armed()
		<-timer.C
		say("fired after %.3f s, now %s", time.Since(start).Seconds(),
			time.Now().UTC().Format(time.RFC3339))
	case "mtime":
		if len(os.Args) != 3 {
			fmt.Fprintln(os.Stderr, "usage: gotime mtime FILE")
			os.Exit(2)
		}
		name := os.Args[2]
		if err := os.WriteFile(name, nil, 0o644); err != nil {
			fail("create", err)
		}
		want := time.Unix(mtime2040, 0)
		if err := os.Chtimes(name, want, want); err != nil {
			fail("chtimes", err)
		}
		st, err := os.Stat(name)
		if err != nil {
			fail("stat", err)
		}
		say("mtime %d %s", st.ModTime().Unix(), st.ModTime().UTC().Format(time.RFC3339))
	case "locks":
		locks()
	default:
		fmt.Fprintf(os.Stderr, "gotime: unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
}

// How many goroutines share the mutex, and how many times each takes it;
// how many times the cond and the channel pass between two goroutines.
const (
	lockWorkers = 2
	lockRounds  = 1000
	handoffs    = 20
)

// locks contends the runtime's own locks, as Go programs use them, where a
// waiter must really sleep: each goroutine is locked to an OS thread of its
// own (runtime.LockOSThread), so a goroutine that waits parks its thread in
// the runtime's futex (notesleep) and the other wakes it (notewakeup). The
// mutex is held while the workers start, so that each one's first Lock
// waits (TryLock failed: contended). One line, its parts printed as each
// ends: on a crash the output says how far it came.
func locks() {
	runtime.GOMAXPROCS(lockWorkers + 1)
	runtime.LockOSThread()
	fmt.Printf("%s %s/%s: ", runtime.Version(), runtime.GOOS, runtime.GOARCH)

	var mu sync.Mutex
	var contended atomic.Int32
	var wg sync.WaitGroup
	taken := 0
	mu.Lock()
	for i := 0; i < lockWorkers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			for j := 0; j < lockRounds; j++ {
				if !mu.TryLock() {
					contended.Add(1)
					mu.Lock()
				}
				taken++
				mu.Unlock()
			}
		}()
	}
	for contended.Load() < lockWorkers {
		runtime.Gosched()
	}
	mu.Unlock()
	wg.Wait()
	fmt.Printf("mutex %d of %d (%d contended), ", taken, lockWorkers*lockRounds, contended.Load())

	// sync.Cond: a turn passed back and forth, each side waiting for it.
	var cmu sync.Mutex
	cond := sync.NewCond(&cmu)
	turn, passed := 0, 0
	wg.Add(1)
	go func() {
		defer wg.Done()
		runtime.LockOSThread()
		cmu.Lock()
		for i := 0; i < handoffs; i++ {
			for turn != 1 {
				cond.Wait()
			}
			turn = 0
			passed++
			cond.Signal()
		}
		cmu.Unlock()
	}()
	cmu.Lock()
	for i := 0; i < handoffs; i++ {
		turn = 1
		cond.Signal()
		for turn != 0 {
			cond.Wait()
		}
	}
	cmu.Unlock()
	wg.Wait()
	fmt.Printf("cond %d of %d, ", passed, handoffs)

	// A channel: each value handed to the other goroutine and back.
	ping, pong := make(chan int), make(chan int)
	go func() {
		runtime.LockOSThread()
		for v := range ping {
			pong <- v + 1
		}
		close(pong)
	}()
	returned := 0
	for i := 0; i < handoffs; i++ {
		ping <- i
		if <-pong == i+1 {
			returned++
		}
	}
	close(ping)
	<-pong
	fmt.Printf("chan %d of %d\n", returned, handoffs)
}
