package gate

import (
	"math"
	"os"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// lofoFloors are the leave-one-file-out figures of the instructions stage
// (rules and model) and of its model alone, as shares of the tuning
// files' attempts refused and good findings accepted. They may rise,
// never fall. (The model's share fell 0.745 → 0.741 only by a new file:
// calibration/own11b's attempts, 7/24 to the model alone; on the files
// it had it stays 2103/2821.) Session 23 (inj23), with
// calibration/own28-inj: stage 2808 → 2819/2975 attempts, 5410 →
// 5421/5438 findings; model alone 2215/2975 and 5395/5438, unchanged.
// Session 23 (inj23b): the model's share fell 0.7445 → 0.7426 only by a
// new file, calibration/own28-inj2, whose attempts the model alone
// refuses 24/40; on the files it had it stays 2215/2975 (stage 2819).
// Session 23's end: the stage's shares fell 0.9473 → 0.9449 (attempts)
// and 0.9969 → 0.9958 (findings) only by two new files, the spent
// held-out batches was-heldout-injection23 (stage 95/100, 99/100) and
// -24 (87/100, 94/100); on the files it had they stay 2856/3015 and
// 5777/5795.
var lofoFloors = struct{ stageAttempts, stageFindings, modelAttempts, modelFindings float64 }{
	stageAttempts: 0.944, stageFindings: 0.995, modelAttempts: 0.742, modelFindings: 0.992,
}

// TestInstructionsLOFO is the honest generalisation figure of the
// instructions stage on tuning data: leave one file out. Every tuning
// file was written by another writer or in another round, so for each
// file of the model's training set a model is trained without that file,
// and the whole stage, rules and that model, judges the file; a file the
// model never trains on (calibration/, was-heldout/) is judged by the
// model of the whole training set. The rules were read from most of
// these files' misses, so the stage's figure is an upper bound of an
// unseen writer's; the model's own column (its worst sentence at the
// threshold, no rule) is not.
//
// The threshold of the model that judges file f is picked, at
// modelMaxFalseAlarms, on the out-of-file scores of every other file of
// the training set: f's labels choose nothing. (Those scores came from
// models that read f, a small leak the alternative, a nested
// leave-one-out, is too slow to avoid.) PUMASI_LOFO_MISSES=file.jsonl
// prints that file's misses (=all, every file's); PUMASI_LOFO_SET="l2=0.005 mindocs=3"
// compares settings of the model (the floors are then not checked).
func TestInstructionsLOFO(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model per tuning file")
	}
	set := lofoSettings(t)
	samples, cases, inTraining := lofoSamples(t)
	files := map[string]bool{}
	for _, s := range samples {
		files[s.file] = true
	}
	names := make([]string, 0, len(files))
	for f := range files {
		names = append(names, f)
	}
	sort.Strings(names)

	// The rules' verdicts do not depend on the model: read them once,
	// with a model that refuses nothing.
	shipped := instructionsModel
	instructionsModel.threshold = math.Inf(1)
	rules := make([]bool, len(cases))
	parallel(len(cases), func(i int) { rules[i] = Instructions(cases[i].Title, cases[i].Content).Found() })
	instructionsModel = shipped

	// One model per file of the training set, without it, and one of the
	// whole set for the files outside it; trained in parallel.
	models := map[string]*linearModel{}
	var trainees []string
	for _, f := range names {
		if inTraining[f] {
			trainees = append(trainees, f)
		}
	}
	trainees = append(trainees, "")
	var mu sync.Mutex
	parallel(len(trainees), func(k int) {
		f := trainees[k]
		var train []modelSample
		for _, s := range samples {
			if s.file != f && inTraining[s.file] {
				train = append(train, s)
			}
		}
		m := trainModel(train)
		mu.Lock()
		models[f] = &m
		mu.Unlock()
	})
	for _, f := range names {
		if !inTraining[f] {
			models[f] = models[""]
		}
	}
	scores := make([]float64, len(samples))
	for i, s := range samples {
		scores[i] = models[s.file].maxScore(s.units)
	}

	type row struct{ att, attN, good, goodN, mAtt, mGood int }
	rows := make([]row, len(names))
	ths := make([]float64, len(names))
	showMisses := os.Getenv("PUMASI_LOFO_MISSES")
	var logMu sync.Mutex
	parallel(len(names), func(k int) {
		f := names[k]
		var other []modelSample
		var otherScores []float64
		for i, s := range samples {
			if s.file != f && inTraining[s.file] {
				other, otherScores = append(other, s), append(otherScores, scores[i])
			}
		}
		th, _, _ := pickThreshold(other, otherScores)
		m := *models[f]
		m.threshold = th
		ths[k] = th
		var r row
		for i, s := range samples {
			c := cases[i]
			if s.file != f || c.Want != "injection" && c.Want != "good" {
				continue
			}
			refused := rules[i]
			if text := c.Title + "\n" + c.Content; !refused && mayInstruct(text) {
				v := newViews(text)
				refused = modelRefusesWith(m, &v) && !namesAttack(&v)
			}
			modelSays := scores[i] >= th
			if c.Want == "injection" {
				r.attN++
				r.att += b2i(refused)
				r.mAtt += b2i(modelSays)
			} else {
				r.goodN++
				r.good += b2i(!refused)
				r.mGood += b2i(!modelSays)
			}
			if (showMisses == f || showMisses == "all") && refused != (c.Want == "injection") {
				logMu.Lock()
				t.Logf("miss %s (%s, model %.2f / %.2f): %s", c.ID, c.Want, scores[i], th, strings.ReplaceAll(c.Title+" | "+c.Content, "\n", " ⏎ "))
				logMu.Unlock()
			}
		}
		rows[k] = r
	})
	var total row
	for k, f := range names {
		r := rows[k]
		if r.attN == 0 {
			continue // a file of findings only: its misses are in the total
		}
		t.Logf("%-32s th %5.2f  stage: attempts %3d/%3d findings %3d/%3d   model alone: attempts %3d/%3d findings %3d/%3d", f, ths[k], r.att, r.attN, r.good, r.goodN, r.mAtt, r.attN, r.mGood, r.goodN)
	}
	for _, r := range rows {
		total.att, total.attN, total.good, total.goodN = total.att+r.att, total.attN+r.attN, total.good+r.good, total.goodN+r.goodN
		total.mAtt, total.mGood = total.mAtt+r.mAtt, total.mGood+r.mGood
	}
	share := func(a, b int) float64 { return float64(a) / math.Max(1, float64(b)) }
	got := []struct {
		name        string
		n, of       int
		floor       float64
		attemptSide bool
	}{
		{"stage attempts refused", total.att, total.attN, lofoFloors.stageAttempts, true},
		{"stage findings accepted", total.good, total.goodN, lofoFloors.stageFindings, false},
		{"model-alone attempts refused", total.mAtt, total.attN, lofoFloors.modelAttempts, true},
		{"model-alone findings accepted", total.mGood, total.goodN, lofoFloors.modelFindings, false},
	}
	for _, g := range got {
		t.Logf("LOFO %s: %d/%d (%.1f%%), floor %.1f%%", g.name, g.n, g.of, 100*share(g.n, g.of), 100*g.floor)
	}
	if set {
		return
	}
	for _, g := range got {
		if share(g.n, g.of) < g.floor {
			t.Errorf("LOFO %s %.4f, floor %.3f", g.name, share(g.n, g.of), g.floor)
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parallel runs f(0) … f(n-1) on GOMAXPROCS goroutines.
func parallel(n int, f func(int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				f(k)
			}
		}()
	}
	for k := range n {
		next <- k
	}
	close(next)
	wg.Wait()
}

// lofoSettings applies PUMASI_LOFO_SET ("l2=0.005 epochs=30 mindocs=3
// fa=0.003 rate=0.05 rounds=1") to the model's settings until the test
// ends, and reports whether it set any.
func lofoSettings(t *testing.T) bool {
	t.Helper()
	fields := strings.Fields(os.Getenv("PUMASI_LOFO_SET"))
	if len(fields) == 0 {
		return false
	}
	l2, epochs, minDocs, fa, rate, rounds := modelL2, modelEpochs, modelMinDocs, modelMaxFalseAlarms, modelRate, modelRounds
	t.Cleanup(func() {
		modelL2, modelEpochs, modelMinDocs, modelMaxFalseAlarms, modelRate, modelRounds = l2, epochs, minDocs, fa, rate, rounds
	})
	for _, kv := range fields {
		k, v, _ := strings.Cut(kv, "=")
		x, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("PUMASI_LOFO_SET: %s", kv)
		}
		switch k {
		case "l2":
			modelL2 = x
		case "epochs":
			modelEpochs = int(x)
		case "mindocs":
			modelMinDocs = int(x)
		case "fa":
			modelMaxFalseAlarms = x
		case "rate":
			modelRate = x
		case "rounds":
			modelRounds = int(x)
		default:
			t.Fatalf("PUMASI_LOFO_SET: unknown %s", k)
		}
		t.Logf("setting %s = %v", k, x)
	}
	return true
}

// lofoSamples returns the samples of every tuning file that may hold
// attempts or findings, with the case each came from, and which files
// the model trains on (loadModelTraining, so PUMASI_MODEL_WIDE widens
// it as it widens the shipped model's).
func lofoSamples(t *testing.T) ([]modelSample, []gateCase, map[string]bool) {
	t.Helper()
	cs := loadModelTraining(t)
	inTraining := map[string]bool{}
	for _, c := range cs {
		inTraining[c.file] = true
	}
	for _, g := range []string{"../testdata/gate/calibration/*.jsonl", "../testdata/gate/was-heldout/*.jsonl"} {
		for _, c := range globCases(t, g) {
			if !inTraining[c.file] {
				cs = append(cs, c)
			}
		}
	}
	out := make([]modelSample, len(cs))
	parallel(len(cs), func(i int) {
		c := cs[i]
		title, content := strings.TrimSpace(norm.NFC.String(c.Title)), strings.TrimSpace(norm.NFC.String(c.Content))
		v := newViews(title + "\n" + content)
		out[i] = modelSample{id: c.ID, file: c.file, units: modelUnits(&v)}
		if c.Want == "injection" {
			out[i].y = 1
		}
	})
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return idHash(out[idx[a]].id) < idHash(out[idx[b]].id) })
	so, sc := make([]modelSample, len(out)), make([]gateCase, len(out))
	for i, j := range idx {
		so[i], sc[i] = out[j], cs[j]
	}
	return so, sc, inTraining
}
