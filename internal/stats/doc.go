// Package stats holds the generic statistics behind gpureport's trend
// verdicts: float64 series in, results out. It knows nothing of memory,
// snapshots or devices; package analyze gives the numbers their meaning.
//
// What is here, and why each method:
//
//   - TheilSen: the median of all pairwise slopes, with Sen's
//     distribution-free 95% interval. Up to 29% of the points can be wrong
//     without moving it, so one snapshot taken mid-forward does not tilt a
//     trend.
//   - MannKendall and StratifiedMannKendall: a rank test of "the series
//     tends to rise with its order", exact below 10 points without ties and
//     normal-approximated (with the tie correction) above. Its p-value says
//     how surprising the rise would be if the series were flat.
//   - ModifiedMannKendall and HamedRaoFactor: the same test with Hamed and
//     Rao's correction for serial correlation (hamedrao.go). Mann-Kendall's
//     variance assumes independent points, but snapshots of a container
//     that spans several dumps, or of anything that wanders slowly, are
//     alike from one to the next, and such a series rises for a stretch
//     by chance far more often than independent noise does. The correction
//     inflates Var(S) by the effective sample size the ranks'
//     autocorrelation implies (never deflates it), and TheilSenCorrected
//     widens Sen's interval by the same factor, so test and interval agree.
//   - OLS: least squares with its t interval, used where ties pin
//     Theil-Sen's slope to 0 (a staircase of equal steps) and for R².
//   - FindStep, Segments, Drops, TroughEnvelope, NeighbourMin and
//     FloorPoints: change points and the lower envelope of a saw-tooth or
//     of matches with lone bad ones, so that one jump or a repeating peak
//     is not mistaken for steady growth.
//   - Median, NoiseScale, NormalQuantile-style helpers (dist.go): the
//     distributions the tests need, written out because the standard
//     library has only the error function.
//
// Every function is deterministic and allocation-bounded by its input; none
// keeps state between calls.
package stats
