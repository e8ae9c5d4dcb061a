package embed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"pumasi/knowledge"
)

// Defaults of the OpenAI-compatible client.
const (
	DefaultTimeout    = 30 * time.Second
	DefaultMaxBatch   = 128
	DefaultMaxRetries = 2
	maxResponseBytes  = 64 << 20
	maxRetryWait      = 10 * time.Second
)

// OpenAIConfig configures an OpenAI-compatible embeddings client
// (PUMASI_EMBEDDINGS_URL, PUMASI_EMBEDDINGS_MODEL, PUMASI_EMBEDDINGS_KEY).
type OpenAIConfig struct {
	// URL is the endpoint: the full .../embeddings URL, an API base ending
	// in /v1, or a bare host, to which /v1/embeddings is appended.
	URL   string
	Model string
	// Key, when set, is sent as a bearer token.
	Key string
	// Dimensions, when positive, asks models that support it for shorter
	// vectors.
	Dimensions int
	// Timeout bounds each HTTP attempt (DefaultTimeout).
	Timeout time.Duration
	// MaxBatch is the most inputs sent in one request (DefaultMaxBatch).
	MaxBatch int
	// MaxRetries is how often a 429, 5xx or network failure is retried
	// (DefaultMaxRetries; negative means none).
	MaxRetries int
	// Client is the HTTP client (a fresh one when nil).
	Client *http.Client
}

// OpenAI embeds text through an OpenAI-compatible /v1/embeddings endpoint.
// Vectors are L2-normalised so that cosine is a dot product whichever
// provider answers.
type OpenAI struct {
	url     string
	cfg     OpenAIConfig
	client  *http.Client
	backoff func(attempt int) time.Duration
}

// APIError is an error answer of the endpoint: its HTTP status and the
// `{"error": {"message", "type", "code"}}` body, when there was one.
type APIError struct {
	Status  int
	Type    string
	Code    string
	Message string

	retryAfter time.Duration
}

func (e *APIError) Error() string {
	msg := e.Message
	if msg == "" {
		msg = http.StatusText(e.Status)
	}
	if e.Type != "" {
		return fmt.Sprintf("embeddings: status %d (%s): %s", e.Status, e.Type, msg)
	}
	return fmt.Sprintf("embeddings: status %d: %s", e.Status, msg)
}

// Temporary reports whether retrying may help: rate limits and server errors.
func (e *APIError) Temporary() bool {
	return e.Status == http.StatusTooManyRequests || e.Status >= 500
}

// NewOpenAI validates cfg and returns a client.
func NewOpenAI(cfg OpenAIConfig) (*OpenAI, error) {
	if cfg.URL == "" {
		return nil, errors.New("embeddings: URL is required")
	}
	if cfg.Model == "" {
		return nil, errors.New("embeddings: model is required")
	}
	if !strings.HasPrefix(cfg.URL, "http://") && !strings.HasPrefix(cfg.URL, "https://") {
		return nil, fmt.Errorf("embeddings: URL %q must be http or https", cfg.URL)
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBatch <= 0 {
		cfg.MaxBatch = DefaultMaxBatch
	}
	if cfg.MaxRetries == 0 {
		cfg.MaxRetries = DefaultMaxRetries
	}
	if cfg.MaxRetries < 0 {
		cfg.MaxRetries = 0
	}
	client := cfg.Client
	if client == nil {
		client = &http.Client{}
	}
	return &OpenAI{url: endpoint(cfg.URL), cfg: cfg, client: client, backoff: defaultBackoff}, nil
}

func endpoint(u string) string {
	u = strings.TrimRight(u, "/")
	switch {
	case strings.HasSuffix(u, "/embeddings"):
		return u
	case strings.HasSuffix(u, "/v1"):
		return u + "/embeddings"
	}
	return u + "/v1/embeddings"
}

func defaultBackoff(attempt int) time.Duration {
	return time.Duration(250*(1<<attempt)) * time.Millisecond
}

// Model names the remote model; vectors are comparable only within it.
func (o *OpenAI) Model() string {
	if o.cfg.Dimensions > 0 {
		return fmt.Sprintf("openai:%s:%d", o.cfg.Model, o.cfg.Dimensions)
	}
	return "openai:" + o.cfg.Model
}

type embeddingRequest struct {
	Model          string   `json:"model"`
	Input          []string `json:"input"`
	EncodingFormat string   `json:"encoding_format"`
	Dimensions     int      `json:"dimensions,omitempty"`
}

type embeddingResponse struct {
	Data []struct {
		Index     int       `json:"index"`
		Embedding []float64 `json:"embedding"`
	} `json:"data"`
	Model string `json:"model"`
}

type errorResponse struct {
	Error *struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Code    any    `json:"code"`
	} `json:"error"`
}

// Embed returns one vector per text, in order, sending at most MaxBatch
// texts per request. Returns an *APIError for error answers of the endpoint.
func (o *OpenAI) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, 0, len(texts))
	dim := -1
	for lo := 0; lo < len(texts); lo += o.cfg.MaxBatch {
		hi := min(lo+o.cfg.MaxBatch, len(texts))
		vecs, err := o.embedBatch(ctx, texts[lo:hi])
		if err != nil {
			return nil, err
		}
		for _, v := range vecs {
			if dim >= 0 && len(v) != dim {
				return nil, fmt.Errorf("embeddings: vectors of different lengths (%d and %d)", dim, len(v))
			}
			dim = len(v)
		}
		out = append(out, vecs...)
	}
	return out, nil
}

func (o *OpenAI) embedBatch(ctx context.Context, batch []string) ([][]float32, error) {
	body, err := json.Marshal(embeddingRequest{Model: o.cfg.Model, Input: batch, EncodingFormat: "float", Dimensions: o.cfg.Dimensions})
	if err != nil {
		return nil, fmt.Errorf("embeddings: encode request: %w", err)
	}
	var lastErr error
	for attempt := 0; attempt <= o.cfg.MaxRetries; attempt++ {
		if attempt > 0 {
			wait := o.backoff(attempt - 1)
			var ae *APIError
			if errors.As(lastErr, &ae) && ae.retryAfter > 0 {
				wait = ae.retryAfter
			}
			wait = min(wait, maxRetryWait)
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
		}
		vecs, err := o.post(ctx, body, len(batch))
		if err == nil {
			return vecs, nil
		}
		lastErr = err
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var ae *APIError
		if errors.As(err, &ae) && !ae.Temporary() {
			return nil, err
		}
		var pe *protocolError
		if errors.As(err, &pe) {
			return nil, err
		}
	}
	return nil, lastErr
}

// protocolError is a 2xx answer that does not fit the API; retrying will not
// fix it.
type protocolError struct{ msg string }

func (e *protocolError) Error() string { return "embeddings: " + e.msg }

func (o *OpenAI) post(ctx context.Context, body []byte, n int) ([][]float32, error) {
	ctx, cancel := context.WithTimeout(ctx, o.cfg.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, o.url, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("embeddings: build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if o.cfg.Key != "" {
		req.Header.Set("Authorization", "Bearer "+o.cfg.Key)
	}
	resp, err := o.client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("embeddings: post: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("embeddings: read response: %w", err)
	}
	if len(raw) > maxResponseBytes {
		return nil, &protocolError{"response larger than 64 MiB"}
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, apiError(resp, raw)
	}
	var er embeddingResponse
	if err := json.Unmarshal(raw, &er); err != nil {
		// Some proxies answer 200 with an error body.
		if ae := apiError(resp, raw); ae.Message != "" {
			return nil, ae
		}
		return nil, &protocolError{"response is not JSON"}
	}
	if len(er.Data) != n {
		if ae := apiError(resp, raw); ae.Message != "" {
			return nil, ae
		}
		return nil, &protocolError{fmt.Sprintf("got %d embeddings for %d inputs", len(er.Data), n)}
	}
	out := make([][]float32, n)
	for _, d := range er.Data {
		if d.Index < 0 || d.Index >= n || out[d.Index] != nil {
			return nil, &protocolError{fmt.Sprintf("bad or repeated index %d", d.Index)}
		}
		if len(d.Embedding) == 0 {
			return nil, &protocolError{fmt.Sprintf("empty embedding at index %d", d.Index)}
		}
		out[d.Index] = normalize(d.Embedding)
	}
	return out, nil
}

// apiError reads the OpenAI error shape, tolerating bodies that are not.
func apiError(resp *http.Response, raw []byte) *APIError {
	ae := &APIError{Status: resp.StatusCode}
	var eb errorResponse
	if json.Unmarshal(raw, &eb) == nil && eb.Error != nil {
		ae.Message = eb.Error.Message
		ae.Type = eb.Error.Type
		if eb.Error.Code != nil {
			ae.Code = fmt.Sprint(eb.Error.Code)
		}
	}
	if ra := resp.Header.Get("Retry-After"); ra != "" {
		if s, err := strconv.Atoi(ra); err == nil && s >= 0 {
			ae.retryAfter = time.Duration(s) * time.Second
		}
	}
	return ae
}

func normalize(v []float64) []float32 {
	var sum float64
	for _, x := range v {
		sum += x * x
	}
	out := make([]float32, len(v))
	if sum == 0 {
		return out
	}
	n := math.Sqrt(sum)
	for i, x := range v {
		out[i] = float32(x / n)
	}
	return out
}

// MergeThreshold is the cosine above which two contributions embedded by a
// semantic model are taken for the same finding: pumasi's default, 0.94,
// right for normalised semantic embeddings (PUMASI_MERGE_THRESHOLD overrides).
func (o *OpenAI) MergeThreshold() float64 { return knowledge.DefaultMergeThreshold }
