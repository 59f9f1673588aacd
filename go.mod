module github.com/orbit-hpc/orbit

go 1.26
