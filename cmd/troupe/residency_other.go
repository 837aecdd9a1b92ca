//go:build !linux

package main

// releaseStartupPages is Linux-only (MADV_PAGEOUT); elsewhere the kernel keeps its own counsel.
func releaseStartupPages() {}
