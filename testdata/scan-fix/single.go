package main

import "fmt"

func ready() {
	fmt.Println("ready")
}
