package analyze

// The analysis's sentences (Reason, Explanation, Evidence, Notes) format
// their figures with internal/units, as the report writers do, so a slope
// reads the same in summary.json, on stdout and in every report.
