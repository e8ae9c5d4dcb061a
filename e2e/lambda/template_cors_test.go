package lambda_test

import (
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"pumasi"
	"pumasi/functions"
	"pumasi/functions/lambdaapp"
)

// knobEnv are the optional knobs a deploy passes from a parameter: the
// knowledge tuning, the CORS policy, the history retention and the offline
// interval.
var knobEnv = append(append([]string{lambdaapp.EnvCORSOrigins, lambdaapp.EnvCORSRoutes, lambdaapp.EnvOfflineAfter}, functions.KnowledgeTuningEnv...), pumasi.HistoryEnv...)

// knobRef returns the parameter the template passes as env var k (on the
// function or in Globals), or nil.
func knobRef(top *yaml.Node, props *yaml.Node, k string) *yaml.Node {
	v := path(props, "Environment", "Variables", k)
	if v == nil {
		v = path(top, "Globals", "Function", "Environment", "Variables", k)
	}
	return v
}

// parameterDefaults maps each knob env var to the Default of the parameter
// the template passes it from.
func parameterDefaults(top *yaml.Node) map[string]string {
	out := map[string]string{}
	resources := path(top, "Resources")
	for _, k := range knobEnv {
		for _, logical := range keys(resources) {
			v := knobRef(top, path(resources, logical, "Properties"), k)
			if v == nil || v.Tag != "!Ref" {
				continue
			}
			if d := path(top, "Parameters", v.Value, "Default"); d != nil {
				out[k] = d.Value
			}
		}
	}
	return out
}

// checkKnowledgeTuning: every function that reads the tuning knobs gets
// each from an optional parameter (empty default: the engine's own), whose
// pattern lets through the values the shared reader accepts and stops
// typos at deploy; the CORS policy comes from two parameters in Globals,
// whose allowed values ParseCORS accepts.
func checkKnowledgeTuning(t *testing.T, top *yaml.Node, byName map[string]samFunction) {
	t.Helper()
	samples := map[string]struct{ good, bad []string }{
		functions.EnvMergeThreshold:        {[]string{"", "0.9", "1.01", ".85", "1"}, []string{"abc", "-0.5", "0.9x", "1e0.5"}},
		functions.EnvKnowledgeVectorWeight: {[]string{"", "0.4", "1", "0"}, []string{"heavy", "-1"}},
		functions.EnvKnowledgeHalfLife:     {[]string{"", "4320h", "90m", "1h30m", "2.5h"}, []string{"4320", "soon", "-1h", "180d"}},
		functions.EnvQuarantineFlags:       {[]string{"", "1", "3", "1000"}, []string{"three", "-1", "2.5"}},
	}
	tuned := 0
	for _, f := range lambdaapp.Functions() {
		if !slices.Contains(f.Env, functions.EnvMergeThreshold) {
			continue
		}
		tuned++
		sf := byName[f.Name]
		for _, k := range functions.KnowledgeTuningEnv {
			v := knobRef(top, sf.props, k)
			if v == nil || v.Tag != "!Ref" {
				t.Errorf("%s %s is not !Ref of a parameter", sf.logical, k)
				continue
			}
			param := path(top, "Parameters", v.Value)
			if d := get(param, "Default"); d == nil || d.Value != "" {
				t.Errorf("parameter %s (%s) must default to empty (the engine's default)", v.Value, k)
			}
			pattern, err := regexp.Compile(path(param, "AllowedPattern").Value)
			if err != nil {
				t.Errorf("parameter %s AllowedPattern: %v", v.Value, err)
				continue
			}
			for _, s := range samples[k].good {
				if !pattern.MatchString(s) {
					t.Errorf("parameter %s refuses %q", v.Value, s)
				}
				if _, err := functions.ReadKnowledgeTuning(func(key string) string { return map[string]string{k: s}[key] }); err != nil {
					t.Errorf("sample %s=%q is not valid: %v", k, s, err)
				}
			}
			for _, s := range samples[k].bad {
				if pattern.MatchString(s) {
					t.Errorf("parameter %s accepts %q", v.Value, s)
				}
			}
		}
	}
	if tuned != 5 {
		t.Errorf("%d functions read the knowledge tuning, want 5 (contribute, query, counters, moderate, sweep)", tuned)
	}

	origins := knobRef(top, nil, lambdaapp.EnvCORSOrigins)
	routes := knobRef(top, nil, lambdaapp.EnvCORSRoutes)
	if origins == nil || origins.Tag != "!Ref" || routes == nil || routes.Tag != "!Ref" {
		t.Fatalf("Globals do not pass %s and %s from parameters", lambdaapp.EnvCORSOrigins, lambdaapp.EnvCORSRoutes)
	}
	if d := path(top, "Parameters", origins.Value, "Default"); d == nil || d.Value != "*" {
		t.Errorf("parameter %s must default to * (localdev's default)", origins.Value)
	}
	rp := path(top, "Parameters", routes.Value)
	if d := get(rp, "Default"); d == nil || d.Value != functions.CORSReads {
		t.Errorf("parameter %s must default to %s (localdev's default)", routes.Value, functions.CORSReads)
	}
	allowed := scalars(get(rp, "AllowedValues"))
	sort.Strings(allowed)
	if want := []string{functions.CORSAll, functions.CORSKnowledge, functions.CORSReads}; !slices.Equal(allowed, want) {
		t.Errorf("parameter %s AllowedValues = %v, want %v", routes.Value, allowed, want)
	}
	for _, r := range allowed {
		if _, err := functions.ParseCORS("*", r); err != nil {
			t.Errorf("CORS routes %q allowed by the template: %v", r, err)
		}
	}
}

// checkPreflights: every path of the HTTP API has an OPTIONS route to the
// function that serves its GET (else the one that serves it), so our CORS
// policy answers the preflight as localdev does; the HTTP API itself has no
// CorsConfiguration, which would answer preflights with a second policy
// and drop the headers our functions send.
func checkPreflights(t *testing.T, top *yaml.Node, preflights map[string][]string) {
	t.Helper()
	resources := path(top, "Resources")
	for _, logical := range keys(resources) {
		if path(resources, logical, "Type").Value == "AWS::Serverless::HttpApi" && path(resources, logical, "Properties", "CorsConfiguration") != nil {
			t.Errorf("%s has a CorsConfiguration: API Gateway would answer preflights itself and ignore functions/cors.go", logical)
		}
	}
	want := map[string]string{}
	for _, rt := range functions.Routes() {
		if strings.HasSuffix(rt.Pattern, "/ws") && rt.Function == "ws-connect" {
			continue // the WebSocket API's $connect in AWS
		}
		if _, ok := want[rt.Pattern]; !ok || rt.Method == "GET" {
			want[rt.Pattern] = rt.Function
		}
	}
	for p, fn := range want {
		if got := preflights[p]; len(got) != 1 || got[0] != fn {
			t.Errorf("OPTIONS %s goes to %v, want [%s]", p, got, fn)
		}
	}
	for p := range preflights {
		if _, ok := want[p]; !ok {
			t.Errorf("OPTIONS %s: no route has that path", p)
		}
	}
	if len(want) < 14 {
		t.Errorf("only %d paths need a preflight route, want every HTTP path (14)", len(want))
	}
}
