package lambdaapp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"regexp"
	"time"
)

// InitErrorType is the error type a function reports when its cold start
// fails (a bad setting, a store it cannot open).
const InitErrorType = "Runtime.InitError"

// initErrorTimeout bounds the report of a failed cold start: the runtime
// API is local, and the function exits whether or not it was heard.
const initErrorTimeout = 2 * time.Second

// ReportInitError tells the Lambda runtime API at api (AWS_LAMBDA_RUNTIME_API)
// why the cold start failed, on its documented init error path, so that the
// invocation waiting for this start answers with err's message as the
// function's error instead of only "Runtime exited with error: exit status
// 1", as in Lambda and under the emulator alike. The invoker (an admin's
// aws lambda invoke, API Gateway's logs) reads that message, so it is err's
// with every credential a setting may carry masked (Scrub); the whole error
// is in the function's own log. It does nothing when api is empty (not
// running in Lambda). Returns an error when the API did not accept the
// report.
func ReportInitError(ctx context.Context, api string, err error) error {
	if api == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, initErrorTimeout)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"errorType": InitErrorType, "errorMessage": Scrub(err.Error())})
	req, rerr := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+api+"/2018-06-01/runtime/init/error", bytes.NewReader(body))
	if rerr != nil {
		return fmt.Errorf("report init error: %w", rerr)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Lambda-Runtime-Function-Error-Type", InitErrorType)
	res, rerr := http.DefaultClient.Do(req)
	if rerr != nil {
		return fmt.Errorf("report init error: %w", rerr)
	}
	res.Body.Close()
	if res.StatusCode/100 != 2 {
		return fmt.Errorf("report init error: runtime API answered %s", res.Status)
	}
	return nil
}

// runtimeAPI is the runtime API's address in Lambda, "" elsewhere.
func runtimeAPI() string { return os.Getenv("AWS_LAMBDA_RUNTIME_API") }

var (
	// reURLUser is the user information of a URL (postgres://user:pw@host).
	// It runs to the last @ before the end of the URL, as Go's URL parser
	// splits (a password may hold @ or /).
	reURLUser = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^\s"']*@`)
	// reSecretParam is a credential passed as name=value: a URL's query
	// parameter or a connection string's keyword (password=…, password =
	// …, sslpassword, X-Amz-Credential, X-Amz-Signature, token, secret,
	// key), or name:value with no space; "NAME: message" is a message.
	reSecretParam = regexp.MustCompile(`(?i)\b([A-Za-z0-9_-]*(?:password|passwd|pwd|secret|token|credential|signature|key))(\s*=\s*|:)("[^"]*"|'[^']*'|[^\s&;"',]+)`)
)

// Scrub masks what may be a credential in msg: the user and password of
// any URL, and the value of every name=value whose name says password,
// secret, token, credential or key. Names of settings stay, so the message
// still says what to fix.
func Scrub(msg string) string {
	msg = reURLUser.ReplaceAllString(msg, "${1}…@")
	return reSecretParam.ReplaceAllString(msg, "${1}${2}…")
}
