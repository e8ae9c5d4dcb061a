package gate

import (
	"flag"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"sort"
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

var updateModel = flag.Bool("update-model", false, "rewrite gate/instructions_model.txt from the tuning part of testdata/gate")

// The generator of the instructions stage's model: logistic regression
// trained on the tuning part only (testdata/gate/*.jsonl and injection/;
// never heldout/), by stochastic gradient descent in a fixed order, so the
// same data gives the same weights. Its threshold is set on scores the
// model gave to cases it was not trained on (5-fold cross-validation):
// the lowest score that keeps the false alarms on the tuning part's
// findings at modelMaxFalseAlarms.
var (
	modelEpochs         = 20
	modelRate           = 0.05
	modelL2             = 3e-3
	modelMinDocs        = 2
	modelFolds          = 5
	modelRounds         = 1
	modelMaxFalseAlarms = 0.002
)

// TestInstructionsModelGrid compares settings by their out-of-fold
// figures on the tuning part (PUMASI_MODEL_GRID=1). PUMASI_MODEL_GRID=file
// prints instead the recall of a model that never read the writer of the
// text it scores (outOfFile), the honest figure for an unseen batch;
// PUMASI_MODEL_WIDE=1 trains on every tuning file but the confirmation
// batch.
func TestInstructionsModelGrid(t *testing.T) {
	if os.Getenv("PUMASI_MODEL_GRID") == "" {
		t.Skip("set PUMASI_MODEL_GRID=1")
	}
	samples := modelSamples(t)
	if os.Getenv("PUMASI_MODEL_GRID") == "file" {
		scores := outOfFile(samples)
		line := "out-of-file:"
		for _, fa := range []float64{0.002, 0.0035, 0.005, 0.01} {
			modelMaxFalseAlarms = fa
			th, r, _ := pickThreshold(samples, scores)
			line += fmt.Sprintf(" recall %.3f at %.2f%% (th %.2f)", r, 100*fa, th)
		}
		modelMaxFalseAlarms = 0.002
		t.Log(line)
		return
	}
	for _, ep := range []int{20, 40} {
		for _, rate := range []float64{0.05} {
			for _, l2 := range []float64{2e-3, 3e-3, 5e-3} {
				for _, rounds := range []int{1} {
					modelEpochs, modelRate, modelL2, modelRounds = ep, rate, l2, rounds
					scores := outOfFold(samples)
					line := fmt.Sprintf("epochs %d rate %.2f l2 %.0e rounds %d:", ep, rate, l2, rounds)
					for _, fa := range []float64{0.002, 0.0035, 0.005, 0.01} {
						modelMaxFalseAlarms = fa
						_, r, _ := pickThreshold(samples, scores)
						line += fmt.Sprintf(" recall %.3f at %.2f%%", r, 100*fa)
					}
					modelMaxFalseAlarms = 0.002
					t.Log(line)
				}
			}
		}
	}
}

// loadModelTraining returns the model's training set: the tuning part of
// testdata/gate (loadGateCorpus) and, with PUMASI_MODEL_WIDE set, every
// other tuning file but the confirmation batch.
func loadModelTraining(t *testing.T) []gateCase {
	t.Helper()
	out := loadGateCorpus(t)
	if os.Getenv("PUMASI_MODEL_WIDE") == "" {
		return out
	}
	for _, g := range []string{"../testdata/gate/calibration/*.jsonl", "../testdata/gate/was-heldout/*.jsonl"} {
		for _, c := range globCases(t, g) {
			if c.file != "was-heldout-injection14.jsonl" {
				out = append(out, c)
			}
		}
	}
	return out
}

type modelSample struct {
	id    string
	file  string
	units [][]string
	y     float64
}

func modelSamples(t *testing.T) []modelSample {
	t.Helper()
	var out []modelSample
	for _, c := range loadModelTraining(t) {
		title, content := strings.TrimSpace(norm.NFC.String(c.Title)), strings.TrimSpace(norm.NFC.String(c.Content))
		v := newViews(title + "\n" + content)
		s := modelSample{id: c.ID, file: c.file, units: modelUnits(&v)}
		if c.Want == "injection" {
			s.y = 1
		}
		out = append(out, s)
	}
	// A fixed order that does not depend on file order.
	sort.Slice(out, func(i, j int) bool { return idHash(out[i].id) < idHash(out[j].id) })
	return out
}

func idHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

// trainModel fits the weights of the features seen in modelMinDocs
// samples or more. Every sentence of a finding is a negative instance; an
// attempt is one positive instance: first all its sentences together,
// then, for modelRounds rounds, its sentence the last model scored
// highest (multiple-instance learning). Attempts and findings' sentences
// weigh the same in total.
func trainModel(samples []modelSample) linearModel {
	df := map[string]int{}
	for _, s := range samples {
		seen := map[string]bool{}
		for _, u := range s.units {
			for _, f := range u {
				if !seen[f] {
					seen[f] = true
					df[f]++
				}
			}
		}
	}
	ids := map[string]int{}
	var names []string
	for f, n := range df {
		if n >= modelMinDocs {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	for i, f := range names {
		ids[f] = i
	}
	index := func(u []string) []int {
		var out []int
		for _, f := range u {
			if i, ok := ids[f]; ok {
				out = append(out, i)
			}
		}
		return out
	}
	type instance struct {
		f []int
		y float64
	}
	docs := make([][][]int, len(samples))
	for i, s := range samples {
		for _, u := range s.units {
			docs[i] = append(docs[i], index(u))
		}
	}
	w := make([]float64, len(names))
	var bias float64
	score := func(f []int) float64 {
		s := bias
		for _, i := range f {
			s += w[i]
		}
		return s
	}
	for round := 0; round <= modelRounds; round++ {
		var inst []instance
		pos, neg := 0.0, 0.0
		for i, s := range samples {
			if s.y == 0 {
				for _, u := range docs[i] {
					inst = append(inst, instance{u, 0})
					neg++
				}
				continue
			}
			var pick []int
			if round == 0 {
				seen := map[int]bool{}
				for _, u := range docs[i] {
					for _, f := range u {
						if !seen[f] {
							seen[f] = true
							pick = append(pick, f)
						}
					}
				}
			} else {
				best := math.Inf(-1)
				for _, u := range docs[i] {
					if sc := score(u); sc > best {
						best, pick = sc, u
					}
				}
			}
			inst = append(inst, instance{pick, 1})
			pos++
		}
		wPos, wNeg := (pos+neg)/(2*pos), (pos+neg)/(2*neg)
		for i := range w {
			w[i] = 0
		}
		bias = 0
		for e := 0; e < modelEpochs; e++ {
			rate := modelRate / (1 + float64(e)/10)
			for _, in := range inst {
				g := sigmoid(score(in.f)) - in.y
				if in.y == 1 {
					g *= wPos
				} else {
					g *= wNeg
				}
				bias -= rate * g
				for _, i := range in.f {
					w[i] -= rate * (g + modelL2*w[i])
				}
			}
		}
	}
	m := linearModel{bias: bias, weights: map[string]float64{}}
	for i, f := range names {
		m.weights[f] = w[i]
	}
	return m
}

// outOfFold returns the score of every sample by a model trained without
// its fold.
func outOfFold(samples []modelSample) []float64 {
	scores := make([]float64, len(samples))
	for k := 0; k < modelFolds; k++ {
		var train []modelSample
		for i, s := range samples {
			if i%modelFolds != k {
				train = append(train, s)
			}
		}
		m := trainModel(train)
		for i, s := range samples {
			if i%modelFolds == k {
				scores[i] = m.maxScore(s.units)
			}
		}
	}
	return scores
}

// outOfFile returns the score of every sample by a model trained without
// its file: each file was written by another writer, so this is the
// figure of text from a writer the model never read.
func outOfFile(samples []modelSample) []float64 {
	scores := make([]float64, len(samples))
	files := map[string]bool{}
	for _, s := range samples {
		files[s.file] = true
	}
	for f := range files {
		var train []modelSample
		for _, s := range samples {
			if s.file != f {
				train = append(train, s)
			}
		}
		m := trainModel(train)
		for i, s := range samples {
			if s.file == f {
				scores[i] = m.maxScore(s.units)
			}
		}
	}
	return scores
}

// pickThreshold returns the lowest threshold whose false alarms on the
// findings stay within modelMaxFalseAlarms, and the share of attempts it
// catches.
func pickThreshold(samples []modelSample, scores []float64) (float64, float64, int) {
	var neg, posScores []float64
	for i, s := range samples {
		if s.y == 1 {
			posScores = append(posScores, scores[i])
		} else {
			neg = append(neg, scores[i])
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(neg)))
	allowed := int(math.Floor(modelMaxFalseAlarms * float64(len(neg))))
	th := neg[allowed] + 0.001
	caught := 0
	for _, p := range posScores {
		if p >= th {
			caught++
		}
	}
	return th, float64(caught) / float64(len(posScores)), allowed
}

func formatModel(m linearModel, n int, cvRecall float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Generated by TestInstructionsModelFresh from the tuning part of testdata/gate (%d cases); do not edit.\n", n)
	fmt.Fprintf(&b, "# Logistic regression; a text is aimed at its reader when @bias + the weights of its features >= @threshold.\n")
	fmt.Fprintf(&b, "# Out-of-fold, the threshold catches %.1f%% of the tuning attempts.\n", 100*cvRecall)
	fmt.Fprintf(&b, "@bias\t%.3f\n@threshold\t%.3f\n", m.bias, m.threshold)
	var names []string
	for f, w := range m.weights {
		if math.Abs(w) >= 0.01 {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	for _, f := range names {
		fmt.Fprintf(&b, "%s\t%.3f\n", f, m.weights[f])
	}
	return b.String()
}

// TestInstructionsModelFresh retrains the model and fails when the
// committed weights differ (-update-model rewrites them).
func TestInstructionsModelFresh(t *testing.T) {
	samples := modelSamples(t)
	th, recall, allowed := pickThreshold(samples, outOfFold(samples))
	m := trainModel(samples)
	m.threshold = th
	t.Logf("model: %d samples, %d features, threshold %.3f; out-of-fold it catches %.1f%% of the attempts with %d false alarms allowed", len(samples), len(m.weights), th, 100*recall, allowed)
	text := formatModel(m, len(samples), recall)
	if *updateModel {
		if err := os.WriteFile("instructions_model.txt", []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, want := instructionsModel, parseModel(text)
	if math.Abs(got.threshold-want.threshold) > 0.01 || math.Abs(got.bias-want.bias) > 0.01 {
		t.Fatalf("instructions_model.txt is stale (threshold %.3f, bias %.3f; retrained %.3f, %.3f): go test ./gate -run ModelFresh -update-model", got.threshold, got.bias, want.threshold, want.bias)
	}
	stale := 0
	for f, w := range want.weights {
		if math.Abs(got.weights[f]-w) > 0.01 {
			stale++
		}
	}
	if stale > 0 || len(got.weights) != len(want.weights) {
		t.Fatalf("instructions_model.txt is stale (%d weights differ, %d vs %d features): go test ./gate -run ModelFresh -update-model", stale, len(got.weights), len(want.weights))
	}
}

// modelUnits is modelSentenceUnits without the sentences: what training and
// the out-of-fold figure read. They score a text as its worst sentence
// (maxScore), as modelRefuses does before it spares a sentence addressed
// to an agent's builder, so the out-of-fold recall is an upper bound of
// the stage's.
func modelUnits(v *views) [][]string {
	units, _ := modelSentenceUnits(v)
	return units
}

// maxScore is the highest score of a text's sentences.
func (m linearModel) maxScore(units [][]string) float64 {
	best := math.Inf(-1)
	for _, u := range units {
		best = max(best, m.score(u))
	}
	return best
}
