#pragma once
#include "sim/timing/scheduler/interface.h"
