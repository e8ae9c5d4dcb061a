package knowledge

import (
	"math"
	"unicode"
)

// The injection decision of a lexical model's query (issue 22, item 6):
// its score weighed by DecisionWeight, a weight in (0, 1] made from the
// evidence features below, so that one floor (LexicalInjectFloor) on the
// reported score is the decision. The weight is one for all of a query's
// hits: it never reorders them.
//
// The coefficients are a logistic regression of "this hit is the prompt's
// entry" on log(score) and the features, fitted by scripts/relevancefit on
// the tuning prompts of testdata/knowledge/relevance (an unrelated prompt's
// first hit and every left-out prompt's, TestRelevanceLeftOut's, as
// negatives; a related prompt's entry among its hits as a positive; each
// class weighed to half; L2 100 on the standardised features), divided by
// the log score's coefficient: the decision log(score) + β·x ≥ τ is then
// score × exp(β·x − k) ≥ LexicalInjectFloor with k = τ − log(floor), and the
// weight is capped at 1. Leave-one-file-out over the outside writers' files
// tuning-5 … tuning-15 (the README's session 11 section): clean 1002 →
// 1047/1131, found 1049 → 1036/1119 against today's floor 0.205 alone; the
// floor alone chosen on the same folds by the same rule 1035 and 1027.

// decisionBeta are the coefficients of the features (feat* order).
var decisionBeta = [nFeatures]float64{
	1.5282604166812417,  // evidence
	5.220606510929162,   // cover
	1.5622903585680803,  // evNoTop
	-0.1840916464096954, // terms
	6.251855541140988,   // title
	8.114045852780075,   // margin
	-3.044660149885291,  // missing
	1.7096728517230626,  // rareFound
	2.2631588038483175,  // cross
	-2.3625354984260634, // howto
	7.621510523037533,   // cosine
}

// decisionK is the shift at which the weight reaches 1 (see above).
const decisionK = 10.244606

// DecisionWeight is the weight a lexical model's query scores take for
// their evidence features f (queryFeatures): exp(min(0, β·f − k)); 1 for
// no features (no terms, no candidates, a semantic model) and for features
// that give no number (a NaN, or infinities that cancel), so that a NaN
// never reaches a score, where it would compare false with every floor
// and a floor's check could not be read either way.
func DecisionWeight(f []float64) float64 {
	if len(f) != nFeatures {
		return 1
	}
	var s float64
	for i, b := range decisionBeta {
		s += b * f[i]
	}
	if math.IsNaN(s) {
		return 1
	}
	return math.Exp(math.Min(0, s-decisionK))
}

// Evidence features of a query and its best first candidate (the one
// with the largest relevance before feedback): what a bag of words can say
// about whether that candidate answers the query beyond its score. One set
// per query, so a weight made from them never reorders the hits.
const (
	featEvidence  = iota // the best evidence / EvidenceFull, at most 3
	featCover            // the best candidate's evidence / the query's whole weight
	featEvNoTop          // the evidence without its strongest term / EvidenceFull, at most 3
	featTerms            // log(1 + the query's distinct terms)
	featTitle            // the IDF-weighted share of the candidate's title stems the query holds
	featMargin           // the best first relevance minus the second's
	featMissing          // the share of the query's weight no candidate holds (unread Hangul aside)
	featRareFound        // of the query's rare terms (held by at most 3 candidates, or none), the weighted share the candidate holds
	featCross            // 1 when the query and the candidate's title are in different scripts
	featHowTo            // 1 for a how-to prompt (AsksHowTo)
	featCosine           // the candidate's cosine
	nFeatures
)

// queryFeatures computes the evidence features of a query with terms and
// text over its candidates' docs and entries, first being their relevances
// before feedback and sims their cosines. It returns nil without terms or
// candidates.
func queryFeatures(text string, terms []string, docs []lexDoc, titles []string, first, sims []float64) []float64 {
	if len(terms) == 0 || len(docs) == 0 {
		return nil
	}
	b, second := 0, -1
	for i := range first {
		if first[i] > first[b] {
			second, b = b, i
		} else if i != b && (second < 0 || first[i] > first[second]) {
			second = i
		}
	}
	qs := analyzeTerms(terms)
	n := float64(len(docs))
	ne := math.Max(n, evidenceDocs)
	f := make([]float64, nFeatures)
	var whole, ev, top, missing, rare, rareHeld float64
	for _, q := range qs {
		df := 0.0
		for _, d := range docs {
			if termMatch(d, q) > 0 {
				df++
			}
		}
		w := math.Log(1 + (ne+1)/(df+0.5))
		if df == 0 && unreadHangul(q) {
			w *= unreadWeight
		} else if df == 0 {
			missing += w
		}
		whole += w
		m := termMatch(docs[b], q) * w
		ev += m
		top = math.Max(top, m)
		if df <= 3 {
			rare += w
			rareHeld += m
		}
	}
	f[featEvidence] = math.Min(3, ev/EvidenceFull)
	f[featCover] = ev / math.Max(whole, 1e-9)
	f[featEvNoTop] = math.Min(3, (ev-top)/EvidenceFull)
	f[featTerms] = math.Log1p(float64(len(qs)))
	f[featMissing] = missing / math.Max(whole, 1e-9)
	if rare > 0 {
		f[featRareFound] = rareHeld / rare
	}
	if second >= 0 {
		f[featMargin] = first[b] - first[second]
	} else {
		f[featMargin] = first[b]
	}
	f[featCosine] = sims[b]
	if AsksHowTo(text) {
		f[featHowTo] = 1
	}
	// The query's stems as a document, to ask which of the candidate's
	// words it holds.
	qd := lexDoc{stems: map[string]uint8{}}
	for _, q := range qs {
		qd.stems[q.stem] = stemLiteral
		for _, s := range q.bridgeStems {
			if qd.stems[s] == 0 {
				qd.stems[s] = stemBridge
			}
		}
	}
	idf := func(stem string) float64 {
		df := 0.0
		for _, d := range docs {
			if d.stems[stem] != 0 {
				df++
			}
		}
		return math.Log(1 + (ne+1)/(df+0.5))
	}
	var titleW, titleHeld float64
	for _, a := range analyzeTerms(lexWords(titles[b])) {
		wt := idf(a.stem)
		titleW += wt
		if h := termMatch(qd, a); h > 0 {
			titleHeld += wt * h
		}
	}
	if titleW > 0 {
		f[featTitle] = titleHeld / titleW
	}
	if hangulShare(text) > 0.5 != (hangulShare(titles[b]) > 0.5) {
		f[featCross] = 1
	}
	return f
}

// hangulShare is the share of text's letters that are Hangul.
func hangulShare(text string) float64 {
	var h, all float64
	for _, r := range text {
		if unicode.IsLetter(r) {
			all++
			if unicode.Is(unicode.Hangul, r) {
				h++
			}
		}
	}
	if all == 0 {
		return 0
	}
	return h / all
}
