// RapidCheck with a chosen number of cases: for properties whose one case is a whole kernel
// run, where the default 100 cases per property would make the test run too long. The seed and
// the other parameters still come from RC_PARAMS, so failures reproduce as usual.
#pragma once

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <sstream>
#include <string>

namespace warpsim::test {

template <class Testable>
void checkProperty(const std::string& name, int cases, int maxSize, Testable&& testable) {
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = cases;
  params.maxSize = maxSize;
  rc::detail::TestMetadata metadata;
  metadata.id = name;
  metadata.description = name;
  const auto result = rc::detail::checkTestable(std::forward<Testable>(testable), metadata, params);
  std::ostringstream os;
  rc::detail::printResultMessage(result, os);
  if (!result.template is<rc::detail::SuccessResult>()) ADD_FAILURE() << os.str();
}

}  // namespace warpsim::test
