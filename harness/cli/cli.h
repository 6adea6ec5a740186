// The warpsim command line: one function per command, each parsing its own options.
// Exit codes: 0 ok, 1 kernel fault or wrong result, 2 bad input or usage.
#pragma once

#include <string>
#include <vector>

namespace warpsim::cli {

enum ExitCode { kOk = 0, kFailed = 1, kUsage = 2 };

int runCommand(const std::vector<std::string>& args);
int suiteCommand(const std::vector<std::string>& args);
int benchCommand(const std::vector<std::string>& args);
int diffCommand(const std::vector<std::string>& args);
int recordCommand(const std::vector<std::string>& args);
int replayCommand(const std::vector<std::string>& args);
int isaRecordCommand(const std::vector<std::string>& args);
int isaReplayCommand(const std::vector<std::string>& args);
int isaCheckCommand(const std::vector<std::string>& args);
int isaTraceCommand(const std::vector<std::string>& args);
int approxMeasureCommand(const std::vector<std::string>& args);
int approxReplayCommand(const std::vector<std::string>& args);
int execCommand(const std::vector<std::string>& args);
int measureCommand(const std::vector<std::string>& args);
int correlateCommand(const std::vector<std::string>& args);
int checkCommand(const std::vector<std::string>& args);
int fastmathVerifyCommand(const std::vector<std::string>& args);
int fastmathExceptionsCommand(const std::vector<std::string>& args);
int supportCommand(const std::vector<std::string>& args);
int linkCommand(const std::vector<std::string>& args);

}  // namespace warpsim::cli
