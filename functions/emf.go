package functions

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// In Lambda there is no process to scrape, so LambdaHTTP writes the same
// request facts /metrics counts as CloudWatch embedded-metric-format log
// lines on stdout (one JSON object per request), which CloudWatch turns
// into metrics in the "pumasi" namespace without any API call. It is on
// whenever AWS_LAMBDA_FUNCTION_NAME is set (Lambda, and the emulator).
var (
	emfMu  sync.Mutex
	emfOut io.Writer
)

func init() {
	if os.Getenv("AWS_LAMBDA_FUNCTION_NAME") != "" {
		emfOut = os.Stdout
	}
}

// emfMetric names one metric of an EMF line.
type emfMetric struct {
	Name string `json:"Name"`
	Unit string `json:"Unit"`
}

// emitEMF writes one request as an EMF line: Requests and Latency by Route
// and Status; Uploads and UploadBytes for uploads; GateVerdicts by Verdict
// and Stage for contributions.
func emitEMF(r *http.Request, status int, took time.Duration, body []byte, now time.Time) {
	emfMu.Lock()
	defer emfMu.Unlock()
	if emfOut == nil {
		return
	}
	route := routeOf(r)
	line := map[string]any{
		"Route": route, "Method": r.Method, "Status": strconv.Itoa(status),
		"Requests": 1, "Latency": float64(took.Microseconds()) / 1000,
	}
	metrics := []emfMetric{{"Requests", "Count"}, {"Latency", "Milliseconds"}}
	dims := [][]string{{"Route", "Method", "Status"}}
	if status/100 == 2 && r.Method == http.MethodPost {
		switch route {
		case "/rooms/{room}/files":
			var f struct {
				Size    int64 `json:"size"`
				Changed bool  `json:"changed"`
			}
			if json.Unmarshal(body, &f) == nil && f.Changed {
				line["Uploads"], line["UploadBytes"] = 1, f.Size
				metrics = append(metrics, emfMetric{"Uploads", "Count"}, emfMetric{"UploadBytes", "Bytes"})
			}
		}
	}
	if route == "/knowledge/contribute" && r.Method == http.MethodPost {
		var b struct {
			Data struct {
				Verdict string `json:"verdict"`
				Stage   string `json:"stage"`
			} `json:"data"`
		}
		if json.Unmarshal(body, &b) == nil && b.Data.Verdict != "" {
			line["Verdict"], line["Stage"], line["GateVerdicts"] = b.Data.Verdict, b.Data.Stage, 1
			metrics = append(metrics, emfMetric{"GateVerdicts", "Count"})
			dims = append(dims, []string{"Verdict", "Stage"})
		}
	}
	line["_aws"] = map[string]any{
		"Timestamp": now.UnixMilli(),
		"CloudWatchMetrics": []map[string]any{{
			"Namespace": "pumasi", "Dimensions": dims, "Metrics": metrics,
		}},
	}
	b, err := json.Marshal(line)
	if err != nil {
		return
	}
	emfOut.Write(append(b, '\n'))
}
