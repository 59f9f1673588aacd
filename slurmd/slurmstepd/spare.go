package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/orbit-hpc/orbit/slurmd/stepd"
	"github.com/orbit-hpc/orbit/slurmd/stepdlaunch"
)

// runSpare waits for slurmd's order on the order pipe (stepdlaunch.OrderFD), then supervises
// the step it names as a stepd started for it would. A pipe closed without an order (slurmd
// stopped, or dropped the spare) ends the spare quietly.
func runSpare() int {
	orders := os.NewFile(stepdlaunch.OrderFD, "orders")
	if orders == nil {
		fmt.Fprint(os.Stderr, usage)
		return 1
	}
	// What every launch pays first is paid while idle: catching the signals, and the first
	// user lookup of a process, which loads the NSS modules.
	sigs := catchSignals() // signals.go
	stepd.PrefetchUser(uint32(os.Getuid()))
	type order struct {
		o   stepdlaunch.Order
		err error
	}
	got := make(chan order, 1)
	go func() {
		o, err := stepdlaunch.ReadOrder(orders)
		got <- order{o, err}
	}()
	var o stepdlaunch.Order
	var err error
	select {
	case r := <-got:
		o, err = r.o, r.err
	case <-sigs:
		return 0 // a signal before any order (slurmd signals only stepds it launched): leave
	}
	orders.Close() // no task may inherit it
	if errors.Is(err, io.EOF) {
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "slurmstepd: error:", err)
		return 1
	}
	os.Setenv("SLURMD_NODENAME", o.Node) // as slurmd sets it for a stepd it starts
	return run([]string{o.Mode, o.Path})
}
