#pragma once
// A minimal PNG writer (8-bit RGBA, stored deflate blocks: no zlib needed) for --screenshot.

#include <cstdint>
#include <string>
#include <vector>

namespace gpusizer::desktop {

// rgba: width*height*4 bytes, top row first. False when the file cannot be written.
bool write_png(const std::string& path, int width, int height, const std::vector<std::uint8_t>& rgba);

}  // namespace gpusizer::desktop
