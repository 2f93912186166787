// bpfgate-skip: an LLVM pass plugin (new pass manager) that skips chosen
// runs of optional passes. bpfgate cc loads it with -fpass-plugin and names
// the runs in $BPFGATE_SKIP_PASSES, comma separated:
//   Name@unit#k    the k-th run (1-based) of pass Name on IR unit `unit`
//   Name@unit#k+   the k-th and every later run
//   Name@unit      every run on that unit;   Name   every run anywhere
// Units are named as -opt-bisect-limit prints them: a function's name,
// "[module]", or "(f, g)" for a call-graph SCC; a loop counts as the
// function holding it (the listing's loop names change from run to run). Optional only: passes LLVM
// marks required still run. C++ because LLVM's plugin interface is C++.
#include "llvm/ADT/Any.h"
#include "llvm/Analysis/LazyCallGraph.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace llvm;

namespace {
struct Rule {
  std::string pass, unit;
  int run = 0;       // 0: every run
  bool later = false; // run and every later one
};

std::vector<Rule> parseRules(const char *spec) {
  std::vector<Rule> rules;
  std::string s = spec ? spec : "";
  size_t pos = 0;
  while (pos <= s.size() && !s.empty()) {
    size_t end = s.find(',', pos);
    std::string item = s.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    Rule r;
    size_t at = item.find('@'), hash = item.rfind('#');
    r.pass = item.substr(0, at);
    if (at != std::string::npos) {
      r.unit = item.substr(at + 1, hash == std::string::npos || hash < at ? std::string::npos
                                                                          : hash - at - 1);
      if (hash != std::string::npos && hash > at) {
        r.run = std::atoi(item.c_str() + hash + 1);
        r.later = item.back() == '+';
      }
    }
    if (!r.pass.empty())
      rules.push_back(r);
    if (end == std::string::npos)
      break;
    pos = end + 1;
  }
  return rules;
}

#include "llvm/Config/llvm-config.h"
// LLVM < 16: any_isa + any_cast by value; later: any_cast on a pointer.
template <typename T> const T *anyGet(const Any &IR) {
#if LLVM_VERSION_MAJOR < 16
  return any_isa<T>(IR) ? &any_cast<const T &>(IR) : nullptr;
#else
  return any_cast<T>(&IR);
#endif
}

std::string unitName(const Any &IR) {
  if (const auto *F = anyGet<const Function *>(IR))
    return (*F)->getName().str();
  if (anyGet<const Module *>(IR))
    return "[module]";
  if (const auto *C = anyGet<const LazyCallGraph::SCC *>(IR))
    return (*C)->getName();
  if (const auto *L = anyGet<const Loop *>(IR))
    return (*L)->getHeader()->getParent()->getName().str();
  return "?";
}

struct Skipper {
  std::vector<Rule> rules;
  std::map<std::string, int> runs;

  bool shouldRun(StringRef pass, Any IR) {
    if (rules.empty())
      return true;
    std::string unit = unitName(IR);
    int n = ++runs[pass.str() + "@" + unit];
    for (const Rule &r : rules) {
      if (r.pass != pass || (!r.unit.empty() && r.unit != unit))
        continue;
      if (r.run == 0 || n == r.run || (r.later && n > r.run))
        return false;
    }
    return true;
  }
};
} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "bpfgate-skip", "1", [](PassBuilder &PB) {
            static Skipper skipper{parseRules(std::getenv("BPFGATE_SKIP_PASSES")), {}};
            PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
            if (!PIC)
              return;
            PIC->registerShouldRunOptionalPassCallback(
                [](StringRef P, Any IR) { return skipper.shouldRun(P, IR); });
          }};
}
