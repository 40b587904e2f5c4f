//go:build !linux

package main

import "time"

// threadCPU is not measured here: CPU percentiles read 0.
func threadCPU() time.Duration { return 0 }

// processCPU is not measured here: CPU times read 0.
func processCPU() time.Duration { return 0 }
