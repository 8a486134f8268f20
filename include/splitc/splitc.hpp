// splitc for C++ programs: include this one header.
#pragma once

#include <splitc/port/am.hpp>
#include <splitc/atomics.hpp>
#include <splitc/bulk.hpp>
#include <splitc/collectives.hpp>
#include <splitc/counter.hpp>
#include <splitc/errors.hpp>
#include <splitc/exchanges.hpp>
#include <splitc/global_memory.hpp>
#include <splitc/global_ptr.hpp>
#include <splitc/grid_teams.hpp>
#include <splitc/indexed.hpp>
#include <splitc/memory_wait.hpp>
#include <splitc/per_processor.hpp>
#include <splitc/put_signal.hpp>
#include <splitc/runtime.hpp>
#include <splitc/spread_array.hpp>
#include <splitc/spread_heap.hpp>
#include <splitc/split_phase_collectives.hpp>
#include <splitc/spread_ptr.hpp>
#include <splitc/strided.hpp>
#include <splitc/team.hpp>
