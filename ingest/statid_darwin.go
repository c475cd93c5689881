package ingest

import "syscall"

// ctimeOf returns the change time of st, Unix nanoseconds.
func ctimeOf(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
