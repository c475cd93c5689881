//go:build !unix

package benchrun

import "os"

// maxRSS is 0 where the child's rusage has no peak RSS.
func maxRSS(*os.ProcessState) int64 { return 0 }
