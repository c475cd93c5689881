// Package units formats and parses the quantities gpureport shows a
// reader, so that a figure reads the same in every sentence, table and
// file: byte sizes (binary IEC units for what the report prints, decimal
// SI units where a person or a log writes them), signed byte differences,
// growth rates in bytes per step, hour, reading or snapshot with their 95%
// intervals, p-values, percentages, counts and their nouns, durations, and
// device labels.
//
// analyze composes its sentences with these functions and report lays out
// its figures with them; ingest and the command line parse sizes with
// ParseSize and UnitBytes. Every formatter returns "n/a" for NaN and
// infinities rather than printing them.
package units
