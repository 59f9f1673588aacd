package main

import "strings"

// cmdToken is `scontrol token [lifespan=SECONDS] [username=NAME]`. Slurm's controller makes
// a token only with AuthAltTypes=auth/jwt; without it (and without a controller) scontrol
// says it could not fetch one. Orbit has no JWT authentication: with auth/jwt configured the
// command is refused by name.
func (c *cli) cmdToken(argv []string) {
	for _, a := range argv[1:] {
		if len(a) < 9 || !strings.EqualFold(a[:9], "lifespan=") && !strings.EqualFold(a[:9], "username=") {
			c.eprintf("Invalid option: `%s`\n", a)
			c.exitCode = 1
			return
		}
	}
	c.exitCode = 1
	if v, _ := c.client().Conf.Get("AuthAltTypes"); strings.Contains(strings.ToLower(v), "auth/jwt") {
		c.errorf("tokens (AuthAltTypes=auth/jwt) are not supported by Orbit yet")
		return
	}
	c.eprintf("Error fetching token\n")
}
