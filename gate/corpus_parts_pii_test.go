package gate

import "testing"

// piiParts15 are the PII stage's own tuning parts of session 15 (own15,
// own15b), reported after corpusParts' other parts.
func piiParts15(t *testing.T) []part {
	t.Helper()
	return []part{
		// own15 (gatepii15, session 15): PII families the PII stage did not
		// name (JWK private members, OpenVPN keys and auth-user-pass files,
		// cookies.txt and session cookies, URL-encoded mail, payout bank
		// details, IMEI, WireGuard keys, Sentry DSNs with a secret) and
		// look-alikes beside each, written from the formats and run once
		// before the change (on b296117): good 10/12 (two public Sentry DSNs
		// refused), placeholders 12/14, PII 17/36 (13 with the labelled kinds).
		// After the rules for them (pii_keyfiles.go, pii_bank.go, cookies.txt,
		// IMEI1/MEID): 12/12, 14/14, 36/36 (36).
		{"tuning/own15", "testdata/gate/calibration/own15.jsonl", loadCases(t, "../testdata/gate/calibration/own15.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "pii": 1}, false},
		// own15b (pii15b, session 15): carriers the PII stage may not read
		// (SQL rows, CSV, HAR and HTTP dumps, netrc, pgpass, .npmrc, pip
		// index URLs, Docker config.json, webhooks, signed URLs), national
		// ids of more countries with their checks, and placeholders beside
		// them (masked keys, Ofcom drama numbers, .test mail, issuers'
		// samples), written from the formats and run once before the change
		// (on 34341e8): good 8/8, placeholders 11/13 (an IBAN registry example
		// and issuers' sample ids refused), PII 19/33 (17 with the labelled kinds).
		// After (pii_carriers.go, pii_ids_europe.go, table borders, SSN
		// columns, issuers' samples): 8/8, 13/13, 33/33 (33). One label
		// corrected: c15b-signed-02's URL carries an STS session token, a
		// secret beside its ASIA key.
		{"tuning/own15b", "testdata/gate/calibration/own15b.jsonl", loadCases(t, "../testdata/gate/calibration/own15b.jsonl"),
			map[string]float64{"good": 1, "placeholder": 1, "pii": 1}, false},
	}
}
