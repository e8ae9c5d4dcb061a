package knowledge

import (
	"regexp"
	"strings"
)

// LexicalModelPrefix starts the model name of an embedder whose vectors
// are bags of words (the offline hashed one). Alike words are all such a
// vector sees, so a near-duplicate merge under such a model also needs the
// two texts' details to be nested (DetailsNested); a semantic embedder's
// cosine alone decides.
const LexicalModelPrefix = "hashed-"

// mergeable reports whether a text at cosine sim to an entry's text merges
// into it under threshold, for vectors of model.
func mergeable(model string, sim, threshold float64, text, entryText string) bool {
	if sim <= threshold {
		return false
	}
	return !strings.HasPrefix(model, LexicalModelPrefix) || DetailsNested(text, entryText)
}

// detailPattern finds the details that make a finding what it is: code
// spans, flags, versions and numbers with their units.
var detailPattern = regexp.MustCompile("`[^`\n]{1,200}`|(?:^|\\s)(--?[A-Za-z][\\w.-]*(?:=[^\\s,;]+)?)|\\b[vV]?\\d+(?:\\.\\d+)+\\b|\\b\\d+(?:[a-zA-Z%]{1,4})?\\b")

// Details returns the normalised details of text (see detailPattern).
func Details(text string) map[string]bool {
	out := map[string]bool{}
	for _, m := range detailPattern.FindAllString(text, -1) {
		m = strings.TrimSpace(strings.Trim(strings.TrimSpace(m), "`"))
		if m != "" {
			out[strings.ToLower(m)] = true
		}
	}
	return out
}

// DetailsNested reports whether the details of one text are all among the
// other's: a rewording may add or drop detail, but two findings that each
// name a detail the other lacks (--force vs --force-with-lease, 0 0 * * *
// vs 0 9 * * *) say different things however alike their words are.
func DetailsNested(a, b string) bool {
	da, db := Details(a), Details(b)
	return subset(da, db) || subset(db, da)
}

func subset(a, b map[string]bool) bool {
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
