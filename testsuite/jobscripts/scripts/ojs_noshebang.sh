#SBATCH -o noshebang.out
echo "no interpreter line"
