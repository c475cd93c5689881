// Package snapshot holds the model of a PyTorch CUDA caching-allocator
// snapshot (torch.cuda.memory._snapshot()) and reads it: Snapshot with its
// segments, blocks, trace events, allocator settings and annotations, the
// interned frames and stacks (Stacks), and the decoder that builds them
// from a bare pickle, a gzipped pickle, a torch.save archive or JSON
// (Decode, DecodeFile). The decoder is a pickle machine of its own: a
// typed fast path fills the model while it reads, a generic mode builds a
// Python value tree for layouts the fast path does not know (and JSON is
// read into the same tree), and neither ever constructs a class. Each field is read by meaning (decode_fields.go) and
// every assumption made about a bad field is kept as a DecodeNote.
//
// What only the trace says of a live block (that it was allocated in the
// trace's window, the user_metadata and annotations put on it) is carried
// onto it by BlockTraces; pinned host memory (host_segments, host_traces)
// is kept apart and presented as a snapshot of its own by Host.
//
// It also holds a snapshot's digest: Reduce keeps what the analysis of a
// whole run reads (segments, live stacks, a summary of each trace), the
// skim (DecodeOptions.SkimTrace) makes the same digest without building
// the trace, EncodeDigest and DecodeDigest store it, and Sharer lets the
// digests of one run share their tables and every segment that did not
// change. A Scratch lends a load worker's decodes, reductions and digest
// reads the arrays of the file before (scratch.go), so a load of hundreds
// of files allocates little more than what its digests keep.
//
// It knows nothing of run directories, file names, GPU logs or the cache
// on disk (package ingest), nor of what the numbers mean (package
// analyze). It is usable on its own; the reference decoder it is tested
// against (gopickle) is linked into its tests only.
package snapshot
