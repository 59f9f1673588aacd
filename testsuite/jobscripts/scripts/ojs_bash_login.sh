#!/bin/bash -l
#SBATCH -J ojs_bash_login
#SBATCH -o login.out
# Many sites recommend a login shell so that "module" works in jobs.
shopt -q login_shell && echo "login shell" || echo "not a login shell"
