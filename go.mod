module github.com/orbit-hpc/orbit

go 1.26.0

require (
	github.com/mattn/go-sqlite3 v1.14.53 // indirect
	github.com/ugorji/go/codec v1.3.2 // indirect
	golang.org/x/sys v0.49.0 // indirect
)
