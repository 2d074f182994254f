#!/bin/bash
# Set up and evaluate the labelled campaigns, as docs/benchmarks.md reports them.
# usage: benchmarks/eval_sets.sh DATA_DIR OUT_DIR TAG campaign...
#   e.g. benchmarks/eval_sets.sh /tmp/eval /tmp/eval-out r6 sallowmere caldergap emberfall
# Each campaign is set up once per DATA_DIR (emberfall by `loregraph demo`; the others by
# ingesting examples/<c>/world and posting examples/<c>/changelog/*.yaml in order), then
# `loregraph eval benchmarks/questions/<c>.yaml` writes OUT_DIR/TAG-<c>.json and .txt and one
# summary line is printed. Run from the repository root with loregraph on PATH (make demo).
set -u
data=$1 out=$2 tag=$3; shift 3
export OMP_NUM_THREADS=1 MKL_NUM_THREADS=1 TOKENIZERS_PARALLELISM=false LOREGRAPH_DATA_DIR=$data
mkdir -p "$out" "$data"
for c in "$@"; do
  if [ ! -f "$data/.setup-$c" ]; then
    if [ "$c" = emberfall ]; then loregraph demo > "$out/setup-$c.log" 2>&1
    else
      loregraph ingest "examples/$c/world" -c "$c" > "$out/setup-$c.log" 2>&1
      for f in examples/"$c"/changelog/*.yaml; do
        loregraph changelog post "$f" -c "$c" >> "$out/setup-$c.log" 2>&1 || echo "POST FAILED $f"
      done
    fi
    touch "$data/.setup-$c"
  fi
  loregraph eval "benchmarks/questions/$c.yaml" -c "$c" -o "$out/$tag-$c.json" \
    > "$out/$tag-$c.txt" 2>&1 || echo "EVAL FAILED $c"
  python - "$out/$tag-$c.json" "$c" <<'PY'
import json, sys
report, campaign = json.load(open(sys.argv[1])), sys.argv[2]
overall = {s["name"]: s["overall"] for s in report["systems"]}
rk, se, bm = overall["ranker"], overall["semantic-only"], overall["bm25-only"]
print(f"{campaign:10s} MRR@10 {rk['mrr_at_10']:.3f} semantic {se['mrr_at_10']:.3f} "
      f"ratio {rk['mrr_at_10'] / se['mrr_at_10']:.2f} bm25 ratio "
      f"{rk['mrr_at_10'] / bm['mrr_at_10']:.2f} nP@5 {rk['np_at_5']:.3f} "
      f"halluc {rk['hallucination_rate']:.3f} as-of {rk['as_of_accuracy']:.3f}")
PY
done
