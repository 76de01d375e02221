package main

import (
	"fmt"
	"os"
)

func ready() {
	fmt.Fprintln(os.Stdout, "ready")
	os.Stdout.Write([]byte("x\n"))
	os.Stdout.WriteString("y\n")
	fmt.Println("z")
}
