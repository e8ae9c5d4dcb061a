// Command knowledge-moderate is the knowledge-moderate Lambda function (provided.al2023, Handler: bootstrap).
// It only reads its configuration and wires; see functions/lambdaapp.
package main

import (
	"os"

	"pumasi/functions/lambdaapp"
)

func main() {
	cfg, err := lambdaapp.LoadConfig("knowledge-moderate", os.Getenv)
	if err != nil {
		lambdaapp.Fatal(err)
	}
	lambdaapp.Start(cfg)
}
