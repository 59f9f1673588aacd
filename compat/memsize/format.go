package memsize

import (
	"fmt"
	"strconv"
)

// FormatMB prints a size in MiB as scontrol prints MinMemoryNode=, MinMemoryCPU= and
// MinTmpDiskNode= (convert_num_unit in exact mode): divided by 1024 while the value is at least
// 1024 and a multiple of 512, so 4096 is "4G", 1536 is "1.50G", 500 is "500M" and 0 is "0".
// Slurm passes the value through a C float first, so sizes above 2^24 MiB lose precision
// exactly as they do there.
func FormatMB(mb uint64) string {
	return convertExact(float64(float32(mb)), 2) // 2: the unit index of M in "\0KMGTP"
}

// FormatKB is FormatMB for a value in KiB (unit index K), used where Slurm converts from
// kilobytes.
func FormatKB(kb uint64) string {
	return convertExact(float64(float32(kb)), 1)
}

const units = "\x00KMGTP"

func convertExact(num float64, unit int) string {
	if int64(num) == 0 {
		return "0"
	}
	for num >= 1024 && uint64(num)%512 == 0 {
		num /= 1024
		unit++
	}
	suffix := "?"
	if unit >= 0 && unit < len(units) {
		suffix = units[unit : unit+1]
		if unit == 0 {
			suffix = ""
		}
	}
	if float64(uint64(num)) == num {
		return strconv.FormatUint(uint64(num), 10) + suffix
	}
	return fmt.Sprintf("%.2f%s", num, suffix)
}

// MbytesToStr prints MiB as Slurm's mbytes_to_str: divided by 1024 while it stays a whole
// number, up to P, with no suffix for MiB ("4096" is "4G", "1536" stays "1536", 0 is "0").
func MbytesToStr(mb uint64) string {
	const unitsUp = "MGTP"
	i := 0
	for ; i < len(unitsUp); i++ {
		if mb != 0 && mb%1024 != 0 {
			break
		}
		mb /= 1024
	}
	if i == len(unitsUp) {
		return strconv.FormatUint(mb, 10) + "?"
	}
	if i == 0 {
		return strconv.FormatUint(mb, 10)
	}
	return strconv.FormatUint(mb, 10) + unitsUp[i:i+1]
}
