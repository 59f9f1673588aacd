#!/bin/bash
#SBATCH --job-name=ojs_mail
#SBATCH --mail-type=END,FAIL
#SBATCH --mail-user=someone@example.org
#SBATCH --output=mail.out
echo "mail requested; the job itself runs as usual"
