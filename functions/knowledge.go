package functions

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"pumasi"
	"pumasi/gate"
	"pumasi/knowledge"
)

// Embedder turns texts into vectors, one per text, in order. Model names the
// vector space: entries are compared only with vectors of the same model.
// adapters/embed provides the offline hashed embedder and an
// OpenAI-compatible client.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float32, error)
	Model() string
}

// HeaderAgent is The Hive's header naming the writing agent.
const HeaderAgent = "X-Hive-Agent"

// MaxQueryBytes bounds ?q=.
const MaxQueryBytes = 4096

func init() {
	addRoute("POST", "/knowledge/contribute", "knowledge-contribute", (*API).contributeKnowledge)
	addRoute("GET", "/knowledge/query", "knowledge-query", (*API).queryKnowledge)
	addRoute("GET", "/knowledge/{id}", "knowledge-query", (*API).getKnowledge)
	addRoute("POST", "/knowledge/{id}/cite", "knowledge-counters", (*API).citeKnowledge)
	addRoute("POST", "/knowledge/{id}/endorse", "knowledge-counters", (*API).endorseKnowledge)
}

// mergeThreshold is the configured threshold, else the embedder's own
// (each embedder knows what cosine means for its vectors), else the default.
func (a *API) mergeThreshold() float64 {
	if a.MergeThreshold > 0 {
		return a.MergeThreshold
	}
	if e, ok := a.Embedder.(interface{ MergeThreshold() float64 }); ok && e.MergeThreshold() > 0 {
		return e.MergeThreshold()
	}
	return knowledge.DefaultMergeThreshold
}

// knowledgeReady reports a deployment without a knowledge store or embedder
// as an internal error, logged once per request.
func (a *API) knowledgeReady(needEmbedder bool) error {
	if a.Knowledge == nil {
		return fmt.Errorf("knowledge store is not configured")
	}
	if needEmbedder && a.Embedder == nil {
		return fmt.Errorf("embedder is not configured")
	}
	return nil
}

// ContributeData is the Hive-shaped `data` of a contribution answer; the
// CLI and MCP tools decode the same type.
type ContributeData struct {
	Verdict    string           `json:"verdict"`
	Entry      *knowledge.Entry `json:"entry,omitempty"`
	Similarity *float64         `json:"similarity,omitempty"`
	Stage      string           `json:"stage,omitempty"`
	Reason     string           `json:"reason,omitempty"`
	Details    []string         `json:"details,omitempty"`
	// The Hive's names (functions/hive.go): entry_id when accepted,
	// merged_into when merged, reasons and hints when rejected.
	EntryID    string   `json:"entry_id,omitempty"`
	MergedInto string   `json:"merged_into,omitempty"`
	Reasons    []string `json:"reasons,omitempty"`
	Hints      []string `json:"hints,omitempty"`
}

// knowledgeWriter admits a keyless knowledge write: a valid X-Hive-Agent
// handle, or a bearer key to derive one from (agent_required; see
// writerHandle), within the rate limits (rate_limited), to a configured
// store. It returns the handle.
func (a *API) knowledgeWriter(w http.ResponseWriter, r *http.Request, needEmbedder bool) (string, error) {
	agent, err := a.writerHandle(r)
	if err != nil {
		return "", err
	}
	if err := a.allowKnowledgeWrite(w, r, agent); err != nil {
		return "", err
	}
	return agent, a.knowledgeReady(needEmbedder)
}

// contributeKnowledge runs the gate, embeds and hands the contribution to the
// store's dedup: 201 accepted, 200 merged, 422 rejected.
func (a *API) contributeKnowledge(w http.ResponseWriter, r *http.Request, _ params) {
	agent, err := a.knowledgeWriter(w, r, true)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	var req knowledge.ContributionRequest
	if err := decodeJSON(r, &req); err != nil {
		a.fail(w, r, err)
		return
	}
	req, err = req.Normalize()
	if err != nil {
		a.fail(w, r, err)
		return
	}
	gate := gate.Check(req.Title, req.Content)
	if !gate.Pass {
		writeJSON(w, http.StatusUnprocessableEntity, map[string]any{
			"success": false,
			"data":    ContributeData{Verdict: knowledge.VerdictRejected, Stage: gate.Stage, Reason: gate.Reason, Details: gate.Details}.hiveFields(),
			// The contract's error body too, for clients that branch on it.
			"error": errorDetail{pumasi.ERejected, gate.Reason},
		})
		return
	}
	vecs, err := a.Embedder.Embed(r.Context(), []string{knowledge.EmbeddingText(req.Title, req.Content)})
	if err != nil {
		a.fail(w, r, fmt.Errorf("embed contribution: %w", err))
		return
	}
	if len(vecs) != 1 {
		a.fail(w, r, fmt.Errorf("embed contribution: got %d vectors for 1 text", len(vecs)))
		return
	}
	res, err := a.Knowledge.Contribute(r.Context(), knowledge.ContributeInput{
		Hive: req.Hive, Agent: agent, Title: req.Title, Content: req.Content, Tags: req.Tags,
		NormHash: knowledge.Hash(req.Title, req.Content), Model: a.Embedder.Model(), Vector: vecs[0],
		Specificity: gate.Specificity, Threshold: a.mergeThreshold(), At: a.now(), Supersedes: req.Supersedes,
	})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	data := ContributeData{Verdict: res.Verdict, Entry: &res.Entry}
	status := http.StatusCreated
	if res.Verdict == knowledge.VerdictMerged {
		status = http.StatusOK
		sim := res.Similarity
		data.Similarity = &sim
	}
	writeHive(w, status, data.hiveFields())
}

// queryKnowledge answers GET /knowledge/query?q=&limit=&hive=&min_score=:
// public; an absent hive searches every hive, and hits scoring below
// min_score are left out (min_score=floor: the injection floor for this
// server's embedder, knowledge.InjectFloorFor, and for the hits after the
// first knowledge.LaterFloorFor on their unweighted score too).
func (a *API) queryKnowledge(w http.ResponseWriter, r *http.Request, _ params) {
	if err := a.knowledgeReady(true); err != nil {
		a.fail(w, r, err)
		return
	}
	qs := r.URL.Query()
	q := strings.TrimSpace(qs.Get("q"))
	if q == "" {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "q is required"))
		return
	}
	if len(q) > MaxQueryBytes {
		a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "q is longer than %d bytes", MaxQueryBytes))
		return
	}
	limit := knowledge.DefaultQueryLimit
	if s := strings.TrimSpace(qs.Get("limit")); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			a.fail(w, r, pumasi.Errorf(pumasi.EInvalidRequest, "limit must be a positive integer"))
			return
		}
		limit = min(n, knowledge.MaxQueryLimit)
	}
	hive := strings.TrimSpace(qs.Get("hive"))
	if hive != "" {
		if err := pumasi.CheckID("hive", hive); err != nil {
			a.fail(w, r, err)
			return
		}
	}
	minScore, err := parseMinScore(qs.Get("min_score"), a.Embedder.Model())
	if err != nil {
		a.fail(w, r, err)
		return
	}
	include, err := a.includeQuarantined(r)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	vecs, err := a.Embedder.Embed(r.Context(), []string{q})
	if err != nil {
		a.fail(w, r, fmt.Errorf("embed query: %w", err))
		return
	}
	if len(vecs) != 1 {
		a.fail(w, r, fmt.Errorf("embed query: got %d vectors for 1 text", len(vecs)))
		return
	}
	later := 0.0
	if strings.TrimSpace(qs.Get("min_score")) == MinScoreFloor {
		later = knowledge.LaterFloorFor(a.Embedder.Model())
	}
	hits, err := a.Knowledge.Query(r.Context(), knowledge.QueryInput{Hive: hive, Text: q, Model: a.Embedder.Model(), Vector: vecs[0], Limit: limit, MinScore: minScore,
		LaterMinScore: later, IncludeQuarantined: include})
	if err != nil {
		a.fail(w, r, err)
		return
	}
	if hits == nil {
		hits = []knowledge.Hit{}
	}
	withSummaries, err := withSummary(hits)
	if err != nil {
		a.fail(w, r, fmt.Errorf("encode hits: %w", err))
		return
	}
	writeHive(w, http.StatusOK, withSummaries)
}

// MinScoreFloor is the min_score that asks for the injection floor of the
// server's embedder (knowledge.InjectFloorFor): the hooks and MCP's
// query_knowledge send it, since only the server knows its model.
const MinScoreFloor = "floor"

// parseMinScore reads ?min_score=: a decimal number in [0, 1] (digits
// with at most one point: no sign, exponent, hex float, infinity or NaN,
// which strconv.ParseFloat would read too), 0 when absent, or
// MinScoreFloor: the injection floor for queries embedded by model.
// Returns invalid_request.
func parseMinScore(s, model string) (float64, error) {
	switch s = strings.TrimSpace(s); s {
	case "":
		return 0, nil
	case MinScoreFloor:
		return knowledge.InjectFloorFor(model), nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !plainDecimal(s) || !(f >= 0 && f <= 1) {
		return 0, pumasi.Errorf(pumasi.EInvalidRequest, "min_score must be a number from 0 to 1, or floor")
	}
	return f, nil
}

// plainDecimal reports whether s is digits with at most one point, and at
// least one digit.
func plainDecimal(s string) bool {
	digits, points := 0, 0
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			points++
		default:
			return false
		}
	}
	return digits > 0 && points <= 1
}

// getKnowledge answers GET /knowledge/{id} with the entry and its
// contributions.
func (a *API) getKnowledge(w http.ResponseWriter, r *http.Request, p params) {
	if err := a.knowledgeReady(false); err != nil {
		a.fail(w, r, err)
		return
	}
	e, err := a.Knowledge.GetEntry(r.Context(), p["id"])
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeHive(w, http.StatusOK, e)
}

func (a *API) citeKnowledge(w http.ResponseWriter, r *http.Request, p params) {
	a.bumpKnowledge(w, r, p, false)
}

func (a *API) endorseKnowledge(w http.ResponseWriter, r *http.Request, p params) {
	a.bumpKnowledge(w, r, p, true)
}

// bumpKnowledge runs an atomic counter bump (cite, or endorse once per
// handle) for the agent in X-Hive-Agent.
func (a *API) bumpKnowledge(w http.ResponseWriter, r *http.Request, p params, endorse bool) {
	agent, err := a.knowledgeWriter(w, r, false)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	bump := a.Knowledge.Cite
	if endorse {
		bump = a.Knowledge.Endorse
	}
	e, err := bump(r.Context(), p["id"], agent)
	if err != nil {
		a.fail(w, r, err)
		return
	}
	writeHive(w, http.StatusOK, e)
}

// SweepKnowledge collapses racing near-duplicates with the API's merge
// threshold; the scheduled sweep (localdev's scheduler, the sweep Lambda)
// calls it.
func (a *API) SweepKnowledge(ctx context.Context) (knowledge.SweepReport, error) {
	if err := a.knowledgeReady(false); err != nil {
		return knowledge.SweepReport{}, err
	}
	if err := a.Reembed(ctx); err != nil {
		return knowledge.SweepReport{}, err
	}
	return a.Knowledge.SweepKnowledge(ctx, a.mergeThreshold())
}

// Reembed embeds again, with the API's embedder, the entries an earlier
// embedder made (after an upgrade or a change of PUMASI_EMBEDDINGS_*), so
// they are compared with new ones again, and then analyses again those
// whose stored analysis is another lexicon's or missing. It is a no-op when
// every entry is current, or without an embedder. localdev runs it at start, and the sweep
// before it collapses near-duplicates.
func (a *API) Reembed(ctx context.Context) error {
	r, ok := a.Knowledge.(interface {
		Reembed(ctx context.Context, model string, embed func(context.Context, []string) ([][]float32, error)) (int, error)
	})
	if !ok || a.Embedder == nil {
		return nil
	}
	n, err := r.Reembed(ctx, a.Embedder.Model(), a.Embedder.Embed)
	if n > 0 {
		a.log().Info("knowledge entries embedded again", "model", a.Embedder.Model(), "entries", n)
	}
	if err != nil {
		return err
	}
	return a.reanalyse(ctx)
}

// reanalyse stores the current lexicon's analysis with the entries whose
// stored one is missing or another lexicon's (knowledge.Reanalyser), so
// queries stop analysing their text again; with Reembed, at localdev's
// start and before each sweep.
func (a *API) reanalyse(ctx context.Context) error {
	r, ok := a.Knowledge.(interface {
		Reanalyse(ctx context.Context) (int, error)
	})
	if !ok {
		return nil
	}
	n, err := r.Reanalyse(ctx)
	if n > 0 {
		a.log().Info("knowledge entries analysed again", "entries", n)
	}
	if err != nil {
		return err
	}
	return a.redetail(ctx)
}

// redetail stores the current details with the entries whose stored ones
// are missing or another extractor's (knowledge.Redetailer), so the merge
// decision stops parsing their text again; with reanalyse.
func (a *API) redetail(ctx context.Context) error {
	r, ok := a.Knowledge.(interface {
		Redetail(ctx context.Context) (int, error)
	})
	if !ok {
		return nil
	}
	n, err := r.Redetail(ctx)
	if n > 0 {
		a.log().Info("knowledge entries' details parsed again", "entries", n)
	}
	return err
}
