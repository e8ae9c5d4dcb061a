// Command bench measures pumasi and prints each figure beside a baseline
// measured in the same run, as a ratio: these machines are shared and noisy,
// so only ratios compare across runs. Run it with `make bench`.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
)

// row is one line of the table: a measured figure beside its baseline.
type row struct {
	Metric   string
	Value    float64
	Unit     string
	Baseline string
	Base     float64
	// HigherIsBetter says whether Value/Base above 1 is good (throughput) or
	// bad (latency); the ratio is printed as value/baseline either way.
	HigherIsBetter bool
}

// scenario produces rows; each registers itself in init from its own file.
type scenario struct {
	name string
	run  func(ctx context.Context, cfg config) ([]row, error)
	// long scenarios (tens of minutes) run only when -only names them.
	long bool
}

type config struct {
	quick bool
	tmp   string
	// pgdir keeps the Postgres scenarios' cluster in this folder, and a
	// seed in it is reused by the next run (knowledge_postgres_dir.go).
	pgdir string
	// seedOnly ends a Postgres scenario once its entries are seeded.
	seedOnly bool
	// pgSizes, when set, are the only entry counts knowledge-postgres
	// measures (of its 10,000 and 100,000), for repeated short runs.
	pgSizes map[int]bool
	// noTrigramAB skips knowledge-postgres-1m's queries without the
	// trigram index (seconds each at 1M, then a rebuild of a minute), for
	// repeated runs that measure something else.
	noTrigramAB bool
}

var scenarios []scenario

func register(s scenario) { scenarios = append(scenarios, s) }

func main() {
	only := flag.String("only", "", "comma-separated scenario names to run (default all)")
	quick := flag.Bool("quick", false, "fewer iterations (for a smoke run)")
	list := flag.Bool("list", false, "list scenarios and exit")
	pgdir := flag.String("pgdir", "", "keep the Postgres scenarios' cluster (and seeds) in this folder, reused by the next run")
	seedOnly := flag.Bool("seed-only", false, "Postgres scenarios: stop once the entries are seeded (with -pgdir, to measure later)")
	pgSizes := flag.String("pgsizes", "", "knowledge-postgres: comma-separated entry counts to measure, of 10000,100000 (default both)")
	noTrigramAB := flag.Bool("no-trigram-ab", false, "knowledge-postgres-1m: skip the queries and contributions without the trigram index")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	sort.SliceStable(scenarios, func(i, j int) bool { return scenarios[i].name < scenarios[j].name })
	if *list {
		for _, s := range scenarios {
			if s.long {
				fmt.Println(s.name, "(long: only with -only)")
			} else {
				fmt.Println(s.name)
			}
		}
		return
	}
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	tmp, err := os.MkdirTemp("", "pumasi-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer os.RemoveAll(tmp)
	want := map[string]bool{}
	for _, n := range strings.Split(*only, ",") {
		if n != "" {
			want[n] = true
		}
	}
	sizes := map[int]bool{}
	for _, n := range strings.Split(*pgSizes, ",") {
		if n = strings.TrimSpace(n); n != "" {
			v, err := strconv.Atoi(n)
			if err != nil {
				fmt.Fprintf(os.Stderr, "bench: -pgsizes %q: %v\n", *pgSizes, err)
				os.Exit(2)
			}
			sizes[v] = true
		}
	}
	var rows []row
	failed := false
	for _, s := range scenarios {
		if len(want) > 0 && !want[s.name] || len(want) == 0 && s.long {
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s ...\n", s.name)
		start := time.Now()
		dir, _ := os.MkdirTemp(tmp, s.name+"-")
		r, err := s.run(ctx, config{quick: *quick, tmp: dir, pgdir: *pgdir, seedOnly: *seedOnly, pgSizes: sizes, noTrigramAB: *noTrigramAB})
		if err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s failed: %v\n", s.name, err)
			failed = true
			continue
		}
		fmt.Fprintf(os.Stderr, "bench: %s done in %s\n", s.name, time.Since(start).Round(time.Millisecond))
		rows = append(rows, r...)
	}
	printTable(rows)
	if failed {
		// os.Exit skips the deferred calls: remove the scratch folder and
		// end the profile first.
		os.RemoveAll(tmp)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

// progress prints rows to stderr as a long scenario measures them.
func progress(rows ...row) {
	for _, x := range rows {
		fmt.Fprintf(os.Stderr, "bench: %s = %s %s (baseline %s %s)\n", x.Metric, num(x.Value), x.Unit, x.Baseline, num(x.Base))
	}
}

func printTable(rows []row) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "metric\tvalue\tunit\tbaseline (same run)\tbaseline value\tratio\t")
	for _, r := range rows {
		ratio := "-"
		if r.Base > 0 {
			ratio = fmt.Sprintf("%.3f", r.Value/r.Base)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Metric, num(r.Value), r.Unit, r.Baseline, num(r.Base), ratio)
	}
	tw.Flush()
}

func num(v float64) string {
	switch {
	case v == 0:
		return "-"
	case v >= 100:
		return fmt.Sprintf("%.0f", v)
	case v >= 1:
		return fmt.Sprintf("%.2f", v)
	default:
		return fmt.Sprintf("%.4f", v)
	}
}

// percentile returns the p-th percentile (0..100) of sorted durations, in ms.
func percentile(sorted []time.Duration, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted)-1) * p / 100)
	return float64(sorted[i]) / float64(time.Millisecond)
}

func sortDurations(d []time.Duration) []time.Duration {
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	return d
}
