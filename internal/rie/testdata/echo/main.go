// Command echo is a Lambda function that returns its event, for the
// emulator's own tests. ECHO_INIT_SLEEP (a duration) makes its cold start
// take that long before it asks for the first event.
package main

import (
	"context"
	"encoding/json"
	"os"
	"time"

	"github.com/aws/aws-lambda-go/lambda"
)

func main() {
	if d, err := time.ParseDuration(os.Getenv("ECHO_INIT_SLEEP")); err == nil {
		time.Sleep(d)
	}
	lambda.Start(func(ctx context.Context, ev json.RawMessage) (json.RawMessage, error) { return ev, nil })
}
