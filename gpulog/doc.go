// Package gpulog reads the GPU logs written beside a training run into one
// model, GPULog: per-GPU memory samples (GPUSample), per-process samples
// (ProcessSample), MIG instances, torch.cuda.memory_stats() samples
// (MemoryStatsSample) and the out-of-memory messages of training logs
// (TrainingOOM), with the lines it could not read and why.
//
// The readers: nvidia-smi's query CSV (with or without a header, also
// re-saved by a spreadsheet with ';' between fields, decimal commas and
// its locale's dates: semicolon_csv.go, semicolon_dates.go),
// compute-apps CSV, dmon and pmon, the box table (also as nvitop -1
// draws it: nvitop.go), -q text and -q -x XML;
// the same tables drawn by `watch nvidia-smi` and captured with script(1)
// or tee, replayed frame by frame on a terminal screen (watch_screen.go);
// the CSV that `gpureport record` writes; DCGM's Prometheus scrapes, the
// Prometheus API's JSON of DCGM metrics (prom_json.go) and
// dcgmi dmon tables; gpustat's text and JSON; AMD's rocm-smi
// --showmeminfo vram and --showmemuse reports (text, --csv, --json:
// rocm_smi.go, GPU N as nvidia-smi's index N); JSON lines of memory_stats(); torch.profiler's
// Chrome traces, whose [memory] events are memory_stats() readings
// (kineto_trace.go, streamed); W&B's wandb-events.jsonl system metrics
// (wandb_events.go); MLflow's system/gpu_N_memory_usage_megabytes and
// _percentage metric files, claimed by name (mlflow_metric.go);
// CSV logs with memory columns (W&B, Lightning, or a --columns spec); and
// training logs (stdout and stderr: OOM messages, read by meaning in
// oom_message.go, vLLM's startup failures for lack of KV cache memory
// (oom_vllm.go), whether the job caught one and went on in
// trainlog_recovery.go, memory_summary() tables, Composer's MemoryMonitor
// lines, and the memory lines of Megatron-LM, DeepSpeed and torchtitan and
// printed memory_stats() dicts: trainlog_framework.go; the vision
// toolkits' peaks: trainlog_peak.go; YOLOv5's and Ultralytics' GPU_mem
// column and banner capacity: trainlog_yolo.go; a script's own prints of
// allocated and reserved memory: trainlog_handwritten.go; Hugging Face
// Trainer's memory metrics, deltas kept as TrainerMemory and never as
// readings: trainlog_hf.go; torchtitan's device capacity line, kept as
// Capacities: trainlog_capacity.go). A prefix a log collector wrote before every line is learned and
// removed (gpulog_prefix.go). A log inside a JSON container (Docker's
// json-file objects, a Jupyter notebook's outputs, a Cloud Logging or
// CloudWatch export) is unwrapped into its lines first (unwrap.go). SniffLog recognises a format from a file's
// first lines, or by most of the lines of its head when its first are
// none of the formats; ReadLog and DecodeLog read it. Timestamps, units, UTF-16
// text, gzip and bzip2 compression and bad lines are handled here, so every
// reader yields the same kind of samples.
//
// It knows nothing of snapshots (package snapshot), of finding the files
// of a run (package ingest), or of what the samples mean (package
// analyze).
package gpulog
