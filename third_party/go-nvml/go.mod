module github.com/NVIDIA/go-nvml

go 1.20
