# Orbit build. `make` builds every binary into bin/, `make test` is the README's test command
# (and what .ci/run calls), `make bench` prints `name: value unit` figures, `make compat`
# re-records the golden files from a live reference Slurm (../shared/reference-slurm).

GO        ?= go
PREFIX    ?= /usr/local
BINDIR    := bin
# Daemons go to sbin, as Slurm installs them; every other binary goes to bin.
# Scheduler plugins (sched_*) live beside slurmctld, where it looks for them after PluginDir.
SBIN_CMDS := slurmctld slurmd slurmstepd satellited sched_builtin sched_backfill sched_sjf
# Each fuzz target runs for a number of executions, not a duration: Go 1.26's coordinator can
# report a duration's deadline as a failure (go.dev/issue/75804, fixed in Go 1.27).
FUZZTIME  ?= 40000x

.PHONY: all build cluster cluster-stop test deps vet fmt-check unit fuzz bench compat install clean

all: build

# Every command and daemon; testsuite/ holds test tools (recorders) that are never installed.
# The example plugin (plugins/examples/sjf) is built under the name slurmctld looks for.
# The user commands are built without cgo, statically linked: no dynamic loader at every
# start (a third of their start-up); internal/userdb asks getent for users and groups that
# /etc/passwd and /etc/group lack, so NSS users (LDAP, SSSD) still resolve. internal/testbin
# builds them the same way. Daemons and ssim (SQLite) keep cgo.
USER_CMDS := sbatch srun salloc squeue scancel sinfo scontrol sacct sdiag sprio
build:
	@mkdir -p $(BINDIR)
	CGO_ENABLED=0 $(GO) build -tags osusergo,netgo -o $(BINDIR)/ $(addprefix ./,$(USER_CMDS))
	mod=$$($(GO) list -m); $(GO) build -o $(BINDIR)/ $$($(GO) list -f '{{if eq .Name "main"}}{{.ImportPath}}{{end}}' ./... | grep -v -e /testsuite/ -e /plugins/examples/ | grep -vx $(foreach c,$(USER_CMDS),-e $$mod/$(c)))
	$(GO) build -o $(BINDIR)/sched_sjf ./plugins/examples/sjf

# The first front door: build, bring up a local cluster of emulated nodes in
# $(ORBIT_HOME) (default ~/.orbit/cluster), run examples/hello.sh and show its output.
cluster:
	@testsuite/scripts/quickstart.sh

cluster-stop:
	@testsuite/scripts/quickstart.sh stop

# The whole test run: formatting, vet, unit and end-to-end tests, then a short fuzz of every
# parser and decoder.
test: deps fmt-check vet build unit fuzz

deps:
	@testsuite/scripts/ensure-deps.sh

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt needed on:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...

unit:
	$(GO) test -count=1 -timeout 20m ./...

fuzz:
	@FUZZTIME=$(FUZZTIME) testsuite/scripts/fuzz-all.sh

bench: build
	@testsuite/scripts/bench.sh

compat: build
	@testsuite/scripts/record-compat.sh

install: build
	@mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/sbin
	@for f in $(BINDIR)/*; do \
		name=$$(basename $$f); dest=bin; \
		for s in $(SBIN_CMDS); do [ "$$name" = "$$s" ] && dest=sbin; done; \
		install -m 0755 $$f $(DESTDIR)$(PREFIX)/$$dest/$$name; \
		echo "installed $(DESTDIR)$(PREFIX)/$$dest/$$name"; \
	done

clean:
	rm -rf $(BINDIR)
