#!/usr/bin/env bash
# A shell script with a known mistake, for scripts/lint-workflows to check
# that ShellCheck still fails on it.
rm -rf $1/build
