//go:build !(cgo && linux)

package record

// Open reports that this build cannot sample GPUs: NVML is reached
// through cgo (go-nvml loads libnvidia-ml.so.1 with dlopen), which this
// build does not have.
func Open() (Source, error) {
	return nil, &UnavailableError{Msg: "NVML is unavailable in this build (built without cgo, or not for Linux); use a cgo-enabled Linux build of gpureport to record"}
}
