//===- PeerRunner.cpp - A peer implementation in its own process ----------===//
//
// Starts a peer, reads its JSON lines and turns them into RunnerInfo and
// timings.
//
//===----------------------------------------------------------------------===//

#include "PeerRunner.h"

#include "ens/ens.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace ens_bench;
using nlohmann::json;

namespace {
/// The last `count` non-empty lines of the file at `path`, joined by " | ".
std::string tail(const std::string &path, size_t count) {
  std::ifstream file(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(file, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos)
      lines.push_back(line);
  std::string text;
  for (size_t i = lines.size() > count ? lines.size() - count : 0;
       i < lines.size(); ++i)
    text += (text.empty() ? "" : " | ") + lines[i];
  return text;
}

std::string stringOr(const json &object, const char *key,
                     const std::string &fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>()
                                               : fallback;
}
} // namespace

PeerRunner::PeerRunner(const PeerSpec &spec, const Workload &workload,
                       const std::string &dataDir, int threads, int checkSteps,
                       const std::map<std::string, std::string> &env,
                       const std::string &logPath)
    : logPath(logPath) {
  info_.impl = spec.impl;
  info_.ensVariant = spec.ensVariant;
  std::vector<std::string> argv = spec.command;
  argv.push_back("--impl=" + spec.peerImpl);
  for (const auto &[key, value] : workload.peerArguments())
    argv.push_back("--" + key + "=" + value);
  argv.push_back("--data=" + dataDir);
  argv.push_back("--threads=" + std::to_string(threads));
  argv.push_back("--check-steps=" + std::to_string(checkSteps));
  try {
    process = std::make_unique<Process>(argv, env, logPath);
    std::optional<std::string> line = process->readLine();
    if (!line)
      throw ens::Error(whyItStopped());
    json ready = json::parse(*line, nullptr, /*allow_exceptions=*/false);
    if (!ready.is_object())
      throw ens::Error("it printed '" + line->substr(0, 200) +
                       "' instead of JSON");
    std::string event = stringOr(ready, "event", "");
    if (event == "unavailable")
      throw ens::Error(stringOr(ready, "reason", "it says it cannot run"));
    if (event != "ready")
      throw ens::Error("it printed '" + line->substr(0, 200) +
                       "' instead of being ready");
    info_.version = stringOr(ready, "version", "?");
    info_.blas = stringOr(ready, "blas", "?");
    info_.notes = stringOr(ready, "notes", "");
    info_.threads = ready.value("threads", 0);
    for (const json &step : ready.value("losses", json::array()))
      info_.checkLosses.push_back(step.get<std::vector<double>>());
    info_.available = true;
  } catch (const std::exception &error) {
    info_.available = false;
    info_.reason = error.what();
    process.reset();
  }
}

PeerRunner::~PeerRunner() {
  if (process)
    process->send("quit");
}

std::string PeerRunner::whyItStopped() {
  int status = process ? process->wait() : -1;
  std::string end = tail(logPath, 3);
  return "it stopped (status " + std::to_string(status) + ")" +
         (end.empty() ? "" : ": " + end);
}

std::string PeerRunner::expect(const std::string &event) {
  std::optional<std::string> line = process->readLine();
  if (!line)
    throw ens::Error(info_.impl + " " + whyItStopped());
  json answer = json::parse(*line, nullptr, /*allow_exceptions=*/false);
  if (!answer.is_object() || stringOr(answer, "event", "") != event)
    throw ens::Error(info_.impl + " answered '" + line->substr(0, 200) +
                     "' instead of " + event);
  return *line;
}

void PeerRunner::warmup(int minSteps, double minMs) {
  std::ostringstream command;
  command << "warmup " << minSteps << " " << minMs;
  if (!process->send(command.str()))
    throw ens::Error(info_.impl + " " + whyItStopped());
  expect("warmup");
}

std::vector<double> PeerRunner::block(const BlockSpec &spec) {
  std::ostringstream command;
  command << "block " << spec.minSteps << " " << spec.minMs << " "
          << spec.maxSteps;
  if (!process->send(command.str()))
    throw ens::Error(info_.impl + " " + whyItStopped());
  json answer = json::parse(expect("block"));
  return answer.at("ms").get<std::vector<double>>();
}
