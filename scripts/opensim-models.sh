# Sourced by the scripts that configure a test build (test.sh, configure-asan.sh):
# OpenSim's example models, which the repository never copies, are read from
# DROPSIM_OPENSIM_MODELS, or from ../shared/osim where that folder is beside the
# checkout (as on CI); the choice is printed. Without either, those tests skip.
if [ -z "${DROPSIM_OPENSIM_MODELS:-}" ] && [ -d ../shared/osim ]; then
  DROPSIM_OPENSIM_MODELS="$(cd ../shared/osim && pwd)"
fi
if [ -n "${DROPSIM_OPENSIM_MODELS:-}" ]; then
  export DROPSIM_OPENSIM_MODELS
  echo "$(basename "$0"): OpenSim-model tests read $DROPSIM_OPENSIM_MODELS (DROPSIM_OPENSIM_MODELS)" >&2
else
  echo "$(basename "$0"): OpenSim-model tests skip: set DROPSIM_OPENSIM_MODELS=<folder of OpenSim's example models>" >&2
fi
