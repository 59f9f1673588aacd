#!/bin/sh
echo "export FROM_PROLOG=yes"
echo "print printed by the task prolog"
