#!/bin/sh
exit 4
