// libcurl for the benchmarks' C limit program.
#include <curl/curl.h>
