// Package plugins is the public SDK a scheduler-plugin author imports, and the home of every
// plugin Orbit ships. The scheduler interface and the go-plugin host arrive with the plugin
// work; see DESIGN.md §6.
package plugins
