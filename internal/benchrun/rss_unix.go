//go:build unix

package benchrun

import (
	"os"
	"runtime"
	"syscall"
)

// maxRSS reads the child's peak RSS from its rusage: kilobytes on Linux,
// bytes on macOS.
func maxRSS(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return ru.Maxrss
	}
	return ru.Maxrss * 1024
}
