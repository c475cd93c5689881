// Package ingest turns a run directory into a Run: it finds the inputs
// (Discover: snapshots and GPU logs recognised by their content, the
// report's own output and excluded paths left out), reads what their names
// say (ParseName: step, rank, ordering number, OOM dumps), and loads them
// in parallel within a memory budget (Load), listing every file it could
// not use with the reason (Skipped). The capture kit's manifests
// (gpureport-capture.json, one per rank; ReadCaptureManifest) are found by
// name and kept on the Run (Run.Captures); which rank's device the GPU
// UUIDs they give belong to is placement's (placement.Run.DeviceUUIDs).
//
// Snapshots are decoded by package snapshot and GPU logs read by package
// gpulog; ingest only decides which file goes where. For runs too large to
// hold decoded, it loads digests instead (LoadOptions.Digest), kept in a
// content-keyed cache on disk (DigestCache), and decodes a digested file
// in full again on demand (SnapshotFile.Full).
//
// It decides nothing about the run: which rank, machine and GPU each input
// belongs to is package placement's, and the analysis is package analyze's.
package ingest
