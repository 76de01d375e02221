package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
)

// fmt.Println("in a comment")
/* os.Stdout.Write([]byte("in a block comment")) */
var banner = `fmt.Println("in a raw string")`

func init() {
	fmt.Println("starting") // expect: go-fmt-print startup-output
}

func send(msg any) error {
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(append(data, '\n'))
	return err
}

func sendEncoder(msg any) error {
	return json.NewEncoder(os.Stdout).Encode(msg)
}

func main() {
	log.SetOutput(os.Stderr)
	log.Println("log writes to stderr by default")
	fmt.Fprintln(os.Stderr, "diagnostics")
	fmt.Printf("listening on %s\n", "stdio") // expect: go-fmt-print
	fmt.Fprintf(os.Stdout, "debug %d\n", 1) // expect: go-fprint-stdout
	os.Stdout.WriteString("ready\n") // expect: go-os-stdout-write
	log.SetOutput(os.Stdout) // expect: go-log-stdout
	fmt.Println( // expect: go-fmt-print
		"split",
	)
	_ = banner
}
