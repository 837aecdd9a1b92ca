//go:build !linux

package main

import "runtime/debug"

// releaseIdleMemory returns freed heap to the system.
func releaseIdleMemory() { debug.FreeOSMemory() }

// releaseStartupPages is Linux-only (MADV_PAGEOUT); elsewhere the kernel keeps its own counsel.
func releaseStartupPages() {}
