// locks.js: Node.js's thread waits contended, as the apps session's
// node_locks runs it (scenarios/apps/session.tsv). Node has no mutex of its
// own: threads (worker_threads) share memory and wait with Atomics.wait and
// Atomics.notify, and a lock is built from them (a compare-and-swap lock
// that sleeps in Atomics.wait when it is taken). The main thread and a
// Worker take that lock in turns, the main thread holding it while the
// Worker starts so that the Worker's first lock waits (contended); then
// they pass a ball back and forth with Atomics.wait/notify. One line, each
// part printed as it ends: on a crash the output says how far it came.
"use strict";
const { Worker, isMainThread, workerData } = require("worker_threads");

const ROUNDS = 1000, HANDOFFS = 20;
// The shared words: the lock (0 free, 1 taken, 2 taken and waited for), the
// count it guards, the waits it made, the ball (1: the Worker's), and
// whether the Worker has done its rounds.
const LOCK = 0, TAKEN = 1, CONTENDED = 2, BALL = 3, DONE = 4;

function lock(a) {
	let c = Atomics.compareExchange(a, LOCK, 0, 1);
	if (c === 0)
		return;
	Atomics.add(a, CONTENDED, 1);
	Atomics.notify(a, CONTENDED);
	if (c !== 2)
		c = Atomics.exchange(a, LOCK, 2);
	while (c !== 0) {
		Atomics.wait(a, LOCK, 2);
		c = Atomics.exchange(a, LOCK, 2);
	}
}

function unlock(a) {
	if (Atomics.sub(a, LOCK, 1) !== 1) {
		Atomics.store(a, LOCK, 0);
		Atomics.notify(a, LOCK, 1);
	}
}

function rounds(a) {
	for (let i = 0; i < ROUNDS; i++) {
		lock(a);
		a[TAKEN]++;
		unlock(a);
	}
}

// Wait until a[at] is no longer from.
function waitWhile(a, at, from) {
	while (Atomics.load(a, at) === from)
		Atomics.wait(a, at, from);
}

// The main thread's part, once the Worker runs ("online": a Worker starts
// with the main thread's event loop free, not blocked in Atomics.wait).
function main(a) {
	waitWhile(a, CONTENDED, 0);
	unlock(a);
	rounds(a);
	waitWhile(a, DONE, 0);
	process.stdout.write(`lock ${a[TAKEN]} of ${2 * ROUNDS} (${a[CONTENDED]} contended), `);
	let returned = 0;
	for (let i = 0; i < HANDOFFS; i++) {
		Atomics.store(a, BALL, 1);
		Atomics.notify(a, BALL);
		waitWhile(a, BALL, 1);
		returned++;
	}
	process.stdout.write(`handoff ${returned} of ${HANDOFFS}\n`);
}

if (isMainThread) {
	const a = new Int32Array(new SharedArrayBuffer(5 * Int32Array.BYTES_PER_ELEMENT));
	lock(a);
	new Worker(__filename, { workerData: a.buffer }).on("online", () => main(a));
} else {
	const a = new Int32Array(workerData);
	rounds(a);
	Atomics.store(a, DONE, 1);
	Atomics.notify(a, DONE);
	for (let i = 0; i < HANDOFFS; i++) {
		waitWhile(a, BALL, 0);
		Atomics.store(a, BALL, 0);
		Atomics.notify(a, BALL);
	}
}
