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
		fmt.Fprintln(os.Stderr, "usage: gotime now|sleep|timer|mtime FILE")
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
	default:
		fmt.Fprintf(os.Stderr, "gotime: unknown command %q\n", os.Args[1])
		os.Exit(2)
	}
}
