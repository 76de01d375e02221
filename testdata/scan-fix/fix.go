package main

import (
	"fmt"
)

// fmt.Println("in a comment")
func start(port int) {
	fmt.Println("listening on", port)
	fmt.Print("ready")
	fmt.Printf("%d\n", port)
	fmt.Println()
	_ = "fmt.Println(\"in a string\")"
}
