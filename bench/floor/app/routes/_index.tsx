export default function Index() {
  return <h1>Bare</h1>
}
